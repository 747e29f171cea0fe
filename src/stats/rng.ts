import { xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import type { JumpableRandomGenerator } from 'pure-rand/types/JumpableRandomGenerator';

/**
 * A seeded pseudo-random source. Every random choice duetkit makes (bootstrap resamples,
 * RMIT orders, simulated data) goes through one of these so that a result can be reproduced
 * from the seed it records.
 *
 * Generator: xoroshiro128+ (Blackman & Vigna) from `pure-rand`, seeded with a 32-bit integer
 * whose 128-bit state is filled by SplitMix32 (`stateFromSeed`), as the generator's authors
 * advise. pure-rand's own `xoroshiro128plus(seed)` sets 96 of the 128 bits to constants: its
 * first output then hardly depends on the seed (`nextIndex(2)` gave 1 for every seed from 0
 * to 1999, so the first RMIT round ran the versions in the same order whatever the seed) and
 * nearby seeds gave nearly equal draws for several more (tests/stats/rng.test.ts).
 */
export interface Rng {
  /** The seed this generator was created with (recorded in results). */
  readonly seed: number;
  /** A uniform 32-bit unsigned integer. */
  nextUint32(): number;
  /** A uniform integer in [0, n), n ≤ 2^21 (exact: Lemire's multiply-shift with rejection). */
  nextIndex(n: number): number;
  /** A uniform double in [0, 1) with 53 random bits. */
  nextFloat(): number;
  /** A standard normal deviate (Box–Muller, one value per call). */
  nextNormal(): number;
  /**
   * An independent generator 2^64 draws further along this one's sequence (xoroshiro128+'s
   * jump), leaving this one untouched: streams for parallel work that never overlap.
   */
  jumped(): Rng;
}

const TWO_32 = 4294967296;
const MAX_INDEX_N = 2 ** 21;

/** Largest seed accepted: seeds are unsigned 32-bit integers. */
export const MAX_SEED = 0xffffffff;

/** Throws unless `seed` is an integer in [0, 2^32). */
export function checkSeed(seed: number): number {
  if (!Number.isInteger(seed) || seed < 0 || seed > MAX_SEED) {
    throw new RangeError(`seed must be an integer from 0 to ${MAX_SEED}, got ${seed}`);
  }
  return seed;
}

export function createRng(seed: number): Rng {
  checkSeed(seed);
  return fromGenerator(seed, xoroshiro128plusFromState(stateFromSeed(seed)));
}

/**
 * xoroshiro128+'s four 32-bit state words from a 32-bit seed: four outputs of SplitMix32
 * (a Weyl sequence through a 32-bit finaliser), so that every bit of the state depends on
 * every bit of the seed. Never all zero (the one state xoroshiro cannot leave).
 */
export function stateFromSeed(seed: number): number[] {
  let x = seed | 0;
  const next = (): number => {
    x = (x + 0x9e3779b9) | 0;
    let z = x ^ (x >>> 16);
    z = Math.imul(z, 0x21f0aaad);
    z ^= z >>> 15;
    z = Math.imul(z, 0x735a2d97);
    return z ^ (z >>> 15);
  };
  const state = [next(), next(), next(), next()];
  return state.every((w) => w === 0) ? [1, 0, 0, 0] : state;
}

function fromGenerator(seed: number, gen: JumpableRandomGenerator): Rng {
  const nextUint32 = (): number => gen.next() >>> 0;
  return {
    seed,
    nextUint32,
    nextIndex(n: number): number {
      // integer check without globals: hot path (Math/Number lookups are slow in some sandboxes)
      if (!(n >= 1 && n <= MAX_INDEX_N && n >>> 0 === n)) {
        throw new RangeError(`nextIndex: n must be an integer from 1 to ${MAX_INDEX_N}, got ${n}`);
      }
      // Lemire (2019), "Fast random integer generation in an interval": m = u·n; the high
      // word is the index; reject the few low words that would bias it.
      for (;;) {
        const m = nextUint32() * n;
        const index = (m / TWO_32) >>> 0;
        const low = m - index * TWO_32;
        if (low >= n) return index;
        const threshold = (TWO_32 - n) % n;
        if (low >= threshold) return index;
      }
    },
    nextFloat(): number {
      const hi = nextUint32() >>> 5; // 27 bits
      const lo = nextUint32() >>> 6; // 26 bits
      return (hi * 67108864 + lo) / 9007199254740992;
    },
    nextNormal(): number {
      let u = 0;
      while (u === 0) u = this.nextFloat();
      const v = this.nextFloat();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
    jumped(): Rng {
      const next = gen.clone() as JumpableRandomGenerator;
      next.jump();
      return fromGenerator(seed, next);
    },
  };
}

/** A fresh seed for callers that were given none (the caller must record it). */
export function randomSeed(entropy: () => number = Math.random): number {
  return Math.floor(entropy() * TWO_32) >>> 0;
}

/**
 * 32-bit FNV-1a of a string's UTF-16 code units: a seed or a tag derived from a name (a
 * benchmark's, a version's), the same on every machine.
 */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
