import { createRequire as __duetkitCreateRequire } from 'node:module';
const require = __duetkitCreateRequire(import.meta.url);

// src/parallel/bootstrap-worker.ts
import { parentPort } from "node:worker_threads";

// src/stats/descriptive.ts
function sorted(xs) {
  return Float64Array.from(xs).sort();
}

// src/stats/order-statistics.ts
function medianOfCounts(ascending, counts, n) {
  const hiRank = n >>> 1;
  const loRank = n % 2 === 1 ? hiRank : hiRank - 1;
  let seen = 0;
  let lo = 0;
  let haveLo = false;
  for (let i = 0; i < counts.length; i++) {
    seen += counts[i];
    if (!haveLo && seen > loRank) {
      lo = ascending[i];
      haveLo = true;
    }
    if (seen > hiRank) return (lo + ascending[i]) / 2;
  }
  throw new RangeError(`medianOfCounts: counts add up to ${seen}, expected ${n}`);
}
function medianWithout(ascending, removed) {
  const m = ascending.length - removed.length;
  if (m < 1) throw new RangeError("medianWithout: nothing left after removal");
  const hi = kthWithout(ascending, removed, m >>> 1);
  if (m % 2 === 1) return hi;
  return (kthWithout(ascending, removed, (m >>> 1) - 1) + hi) / 2;
}
function kthWithout(ascending, removed, k) {
  let position = k;
  for (let j = 0; j < removed.length; j++) {
    if (removed[j] <= position) position++;
    else break;
  }
  return ascending[position];
}

// src/stats/estimators.ts
var NOT_BOOTSTRAPPED = "the trimmed mean is not bootstrapped: its interval is computed directly (compare.ts)";
function sideEstimator(values, statistic) {
  switch (statistic) {
    case "median":
      return medianEstimator(Float64Array.from(values));
    case "mean":
      return meanEstimator(Float64Array.from(values), (s) => s);
    case "gmean":
      return meanEstimator(Float64Array.from(values, Math.log), Math.exp);
    case "trimmed":
      throw new RangeError(NOT_BOOTSTRAPPED);
  }
}
function pairedEstimator(base, head, statistic) {
  const n = base.length;
  switch (statistic) {
    case "gmean":
      return shifted(
        meanEstimator(
          Float64Array.from({ length: n }, (_, i) => Math.log(head[i] / base[i])),
          Math.exp
        )
      );
    case "median":
      return shifted(
        mapped(
          medianEstimator(
            Float64Array.from({ length: n }, (_, i) => Math.log(head[i] / base[i]))
          ),
          Math.exp
        )
      );
    case "mean":
      return shifted(ratioOfMeansEstimator(Float64Array.from(base), Float64Array.from(head)));
    case "trimmed":
      throw new RangeError(NOT_BOOTSTRAPPED);
  }
}
function mapped(e, f) {
  return {
    n: e.n,
    observed: f(e.observed),
    onIndices: (indices) => f(e.onIndices(indices)),
    jackknife: (blockLength) => e.jackknife(blockLength).map(f)
  };
}
function shifted(e) {
  return {
    n: e.n,
    observed: e.observed - 1,
    onIndices: (indices) => e.onIndices(indices) - 1,
    jackknife: (blockLength) => e.jackknife(blockLength).map((v) => v - 1)
  };
}
function blockCount(n, blockLength) {
  return Math.ceil(n / blockLength);
}
function sumsWithoutBlocks(xs, blockLength) {
  const n = xs.length;
  const prefix = new Float64Array(n + 1);
  const suffix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i] + xs[i];
  for (let i = n - 1; i >= 0; i--) suffix[i] = suffix[i + 1] + xs[i];
  const out = new Float64Array(blockCount(n, blockLength));
  for (let b = 0; b < out.length; b++) {
    out[b] = prefix[b * blockLength] + suffix[Math.min(n, (b + 1) * blockLength)];
  }
  return out;
}
function remaining(n, blockLength, b) {
  return n - (Math.min(n, (b + 1) * blockLength) - b * blockLength);
}
function meanEstimator(xs, f) {
  const n = xs.length;
  let total = 0;
  for (let i = 0; i < n; i++) total += xs[i];
  return {
    n,
    observed: f(total / n),
    onIndices(indices) {
      let s = 0;
      for (let i = 0; i < n; i++) s += xs[indices[i]];
      return f(s / n);
    },
    jackknife(blockLength) {
      return sumsWithoutBlocks(xs, blockLength).map((s, b) => f(s / remaining(n, blockLength, b)));
    }
  };
}
function medianEstimator(xs) {
  const n = xs.length;
  const order = Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => xs[a] - xs[b]);
  const ascending = sorted(xs);
  const rankOf = new Int32Array(n);
  order.forEach((original, rank) => rankOf[original] = rank);
  const counts = new Int32Array(n);
  return {
    n,
    observed: medianWithout(ascending, []),
    onIndices(indices) {
      counts.fill(0);
      for (let i = 0; i < n; i++) counts[rankOf[indices[i]]] += 1;
      return medianOfCounts(ascending, counts, n);
    },
    jackknife(blockLength) {
      const out = new Float64Array(blockCount(n, blockLength));
      for (let b = 0; b < out.length; b++) {
        const end = Math.min(n, (b + 1) * blockLength);
        const removed = Int32Array.from(
          { length: end - b * blockLength },
          (_, j) => rankOf[b * blockLength + j]
        ).sort();
        out[b] = medianWithout(ascending, removed);
      }
      return out;
    }
  };
}
function ratioOfMeansEstimator(base, head) {
  const n = base.length;
  let sb = 0;
  let sh = 0;
  for (let i = 0; i < n; i++) {
    sb += base[i];
    sh += head[i];
  }
  return {
    n,
    observed: sh / sb,
    onIndices(indices) {
      let b = 0;
      let h = 0;
      for (let i = 0; i < n; i++) {
        const k = indices[i];
        b += base[k];
        h += head[k];
      }
      return h / b;
    },
    jackknife(blockLength) {
      const bs = sumsWithoutBlocks(base, blockLength);
      const hs = sumsWithoutBlocks(head, blockLength);
      return hs.map((h, b) => h / bs[b]);
    }
  };
}

// src/stats/resample.ts
function drawIid(n, out, rng) {
  for (let i = 0; i < n; i++) out[i] = rng.nextIndex(n);
}
function drawMovingBlocks(n, blockLength, out, rng) {
  if (blockLength <= 1) {
    drawIid(n, out, rng);
    return;
  }
  const starts = n - blockLength + 1;
  let filled = 0;
  while (filled < n) {
    const start = rng.nextIndex(starts);
    const take = Math.min(blockLength, n - filled);
    for (let j = 0; j < take; j++) out[filled++] = start + j;
  }
}

// node_modules/pure-rand/lib/esm/generator/xoroshiro128plus.js
var jumps = [
  3639956645,
  3750757012,
  1261568508,
  386426335
];
var XoroShiro128Plus = class XoroShiro128Plus2 {
  constructor(s01, s00, s11, s10) {
    this.s01 = s01;
    this.s00 = s00;
    this.s11 = s11;
    this.s10 = s10;
  }
  clone() {
    return new XoroShiro128Plus2(this.s01, this.s00, this.s11, this.s10);
  }
  next() {
    const out = this.s00 + this.s10 | 0;
    const a0 = this.s10 ^ this.s00;
    const a1 = this.s11 ^ this.s01;
    const s00 = this.s00;
    const s01 = this.s01;
    this.s00 = s00 << 24 ^ s01 >>> 8 ^ a0 ^ a0 << 16;
    this.s01 = s01 << 24 ^ s00 >>> 8 ^ a1 ^ (a1 << 16 | a0 >>> 16);
    this.s10 = a1 << 5 ^ a0 >>> 27;
    this.s11 = a0 << 5 ^ a1 >>> 27;
    return out;
  }
  jump() {
    let ns01 = 0;
    let ns00 = 0;
    let ns11 = 0;
    let ns10 = 0;
    let s01 = this.s01;
    let s00 = this.s00;
    let s11 = this.s11;
    let s10 = this.s10;
    for (let i = 0; i !== 4; ++i) {
      const ji = jumps[i];
      for (let mask = 1; mask; mask <<= 1) {
        if (ji & mask) {
          ns01 ^= s01;
          ns00 ^= s00;
          ns11 ^= s11;
          ns10 ^= s10;
        }
        const a0 = s10 ^ s00;
        const a1 = s11 ^ s01;
        const s00_ = s00;
        const s01_ = s01;
        s00 = s00_ << 24 ^ s01_ >>> 8 ^ a0 ^ a0 << 16;
        s01 = s01_ << 24 ^ s00_ >>> 8 ^ a1 ^ (a1 << 16 | a0 >>> 16);
        s10 = a1 << 5 ^ a0 >>> 27;
        s11 = a0 << 5 ^ a1 >>> 27;
      }
    }
    this.s01 = ns01;
    this.s00 = ns00;
    this.s11 = ns11;
    this.s10 = ns10;
  }
  getState() {
    return [
      this.s01,
      this.s00,
      this.s11,
      this.s10
    ];
  }
};
function xoroshiro128plusFromState(state) {
  if (!(state.length === 4)) throw new Error("The state must have been produced by a xoroshiro128plus RandomGenerator");
  return new XoroShiro128Plus(state[0], state[1], state[2], state[3]);
}

// src/stats/rng.ts
var TWO_32 = 4294967296;
var MAX_INDEX_N = 2 ** 21;
var MAX_SEED = 4294967295;
function checkSeed(seed) {
  if (!Number.isInteger(seed) || seed < 0 || seed > MAX_SEED) {
    throw new RangeError(`seed must be an integer from 0 to ${MAX_SEED}, got ${seed}`);
  }
  return seed;
}
function createRng(seed) {
  checkSeed(seed);
  return fromGenerator(seed, xoroshiro128plusFromState(stateFromSeed(seed)));
}
function stateFromSeed(seed) {
  let x = seed | 0;
  const next = () => {
    x = x + 2654435769 | 0;
    let z = x ^ x >>> 16;
    z = Math.imul(z, 569420461);
    z ^= z >>> 15;
    z = Math.imul(z, 1935289751);
    return z ^ z >>> 15;
  };
  const state = [next(), next(), next(), next()];
  return state.every((w) => w === 0) ? [1, 0, 0, 0] : state;
}
function fromGenerator(seed, gen) {
  const nextUint32 = () => gen.next() >>> 0;
  return {
    seed,
    nextUint32,
    nextIndex(n) {
      if (!(n >= 1 && n <= MAX_INDEX_N && n >>> 0 === n)) {
        throw new RangeError(`nextIndex: n must be an integer from 1 to ${MAX_INDEX_N}, got ${n}`);
      }
      for (; ; ) {
        const m = nextUint32() * n;
        const index = m / TWO_32 >>> 0;
        const low = m - index * TWO_32;
        if (low >= n) return index;
        const threshold = (TWO_32 - n) % n;
        if (low >= threshold) return index;
      }
    },
    nextFloat() {
      const hi = nextUint32() >>> 5;
      const lo = nextUint32() >>> 6;
      return (hi * 67108864 + lo) / 9007199254740992;
    },
    nextNormal() {
      let u = 0;
      while (u === 0) u = this.nextFloat();
      const v = this.nextFloat();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
    jumped() {
      const next = gen.clone();
      next.jump();
      return fromGenerator(seed, next);
    }
  };
}

// src/stats/bootstrap.ts
var RESAMPLES_PER_CHUNK = 1e3;
function bootstrapChunks(plan, chunks) {
  const draw = resampler(plan);
  let cursor = createRng(plan.seed);
  let at = 0;
  return chunks.map((j) => {
    if (j < at) throw new RangeError(`bootstrapChunks: chunks must ascend, got ${j} after ${at}`);
    for (; at < j; at++) cursor = cursor.jumped();
    const rng = cursor.jumped();
    const count = Math.min(RESAMPLES_PER_CHUNK, plan.resamples - j * RESAMPLES_PER_CHUNK);
    const out = new Float64Array(Math.max(0, count));
    for (let r = 0; r < out.length; r++) out[r] = draw(rng);
    return out;
  });
}
function resampler(plan) {
  if (plan.design === "paired") {
    const pairs = pairedEstimator(plan.base, plan.head, plan.statistic);
    const indices = new Int32Array(pairs.n);
    return (rng) => {
      drawMovingBlocks(pairs.n, plan.blockLength, indices, rng);
      return pairs.onIndices(indices);
    };
  }
  const base = sideEstimator(plan.base, plan.statistic);
  const head = sideEstimator(plan.head, plan.statistic);
  const bi = new Int32Array(base.n);
  const hi = new Int32Array(head.n);
  return (rng) => {
    drawIid(base.n, bi, rng);
    drawIid(head.n, hi, rng);
    return head.onIndices(hi) / base.onIndices(bi) - 1;
  };
}

// src/parallel/bootstrap-worker.ts
parentPort?.on("message", (request) => {
  let reply;
  try {
    reply = { id: request.id, parts: bootstrapChunks(request.plan, request.chunks) };
  } catch (error) {
    reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  const transfer = "parts" in reply ? reply.parts.map((p) => p.buffer) : [];
  parentPort?.postMessage(reply, transfer);
});
