import { normalCdf, normalPpf } from './normal.js';

/** The Hodges–Lehmann estimate of a centre of symmetry with its signed-rank interval. */
export interface HodgesLehmann {
  /** Median of the Walsh averages (dᵢ + dⱼ)/2, i ≤ j. */
  estimate: number;
  lower: number;
  upper: number;
  /**
   * Coverage the interval guarantees for independent values symmetric about their centre:
   * at least the level asked for (exact up to 50 values, normal approximation above), or
   * less when there are too few values to reach it (then it spans every Walsh average).
   */
  coverage: number;
  /** c: the interval is [W₍c+1₎, W₍M−c₎] of the M = n(n+1)/2 sorted Walsh averages. */
  rank: number;
  /** Values the ranks refer to: n, or n / blockLength for autocorrelated values. */
  effectiveN: number;
  /** How the critical value was found: the exact null distribution or the normal one. */
  method: 'exact' | 'asymptotic';
}

/** Up to this many values the signed-rank distribution is exact (scipy's `auto` switch). */
export const EXACT_MAX_N = 50;

/**
 * The Hodges–Lehmann estimator of the centre of symmetry of d (the median of its Walsh
 * averages) and the confidence interval that inverts the Wilcoxon signed-rank test (Tukey
 * 1949; Hollander, Wolfe & Chicken §3.2): [W₍c+1₎, W₍M−c₎] with c the largest integer such
 * that P(W⁺ ≤ c) ≤ (1 − level)/2 under H₀. For independent values from any continuous
 * distribution symmetric about θ it covers θ with at least `level`, without resampling. For
 * normal data it is about 1.5× as efficient as the median (3/π against 2/π of the mean's).
 *
 * n ≤ 50: c from the exact null distribution of W⁺; above: the normal approximation with
 * continuity correction, c = ⌊n(n+1)/4 − ½ − z·σ⌋, σ² = n(n+1)(2n+1)/24 — the interval is then
 * the set of shifts δ whose `scipy.stats.wilcoxon(d − δ)` p-value exceeds 1 − level
 * (tests/fixtures/scipy/make_hodges_lehmann.py checks both). With `blockLength` L > 1
 * (autocorrelated values) c is found for n/L values and placed at the same quantile of all M
 * Walsh averages, an approximation as in `medianInterval`.
 *
 * `ascending` must be sorted and finite. Cost O(n log(range/ulp)) time, O(n) memory: the
 * order statistics of the n(n+1)/2 Walsh averages are selected without listing them.
 */
export function hodgesLehmann(
  ascending: ArrayLike<number>,
  level: number,
  blockLength = 1,
): HodgesLehmann {
  const n = ascending.length;
  if (n < 1) throw new RangeError('a Hodges–Lehmann interval needs at least one value');
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1), got ${level}`);
  if (!(Number.isInteger(blockLength) && blockLength >= 1)) {
    throw new RangeError(`blockLength must be an integer ≥ 1, got ${blockLength}`);
  }
  const d = Float64Array.from(ascending);
  for (let i = 1; i < n; i++) {
    if (!(d[i]! >= d[i - 1]!)) throw new RangeError('hodgesLehmann: values must be sorted');
  }
  const m = (n * (n + 1)) / 2;
  const middle = [Math.floor((m + 1) / 2), Math.ceil((m + 1) / 2)];
  const effectiveN = Math.max(1, Math.floor(n / blockLength));
  const alpha = 1 - level;
  const { rank, tail, method } = signedRankCritical(effectiveN, alpha / 2);
  // c = −1: even the whole range misses the level; it covers unless every value lies on one
  // side of the centre (probability 2·2⁻ⁿ)
  const coverage = rank < 0 ? 1 - 2 * 2 ** -effectiveN : 1 - 2 * tail;
  // ranks (1-based) of the interval's ends among all m Walsh averages
  let loRank: number;
  let hiRank: number;
  if (rank < 0) {
    loRank = 1;
    hiRank = m;
  } else if (effectiveN === n) {
    loRank = rank + 1;
    hiRank = m - rank;
  } else {
    const me = (effectiveN * (effectiveN + 1)) / 2;
    const p = me === 1 ? 0 : rank / (me - 1);
    loRank = 1 + Math.floor(p * (m - 1));
    hiRank = m - Math.floor(p * (m - 1));
  }
  const [a, b, lo, hi] = walshOrderStatistics(d, [middle[0]!, middle[1]!, loRank, hiRank]);
  return {
    estimate: (a! + b!) / 2,
    lower: lo!,
    upper: hi!,
    coverage,
    rank,
    effectiveN,
    method,
  };
}

/**
 * The largest c ≥ 0 with P(W⁺ ≤ c) ≤ tailProbability for n untied values (W⁺: the
 * Wilcoxon signed-rank statistic under H₀), with that probability; c = −1 (tail 0) when even
 * W⁺ = 0 is more likely. Exact for n ≤ EXACT_MAX_N (the counts of the 2ⁿ sign patterns by the
 * recurrence N_j(k) = N_{j−1}(k) + N_{j−1}(k − j)), else the continuity-corrected normal
 * approximation. O(n³) exact, O(1) otherwise.
 */
export function signedRankCritical(
  n: number,
  tailProbability: number,
): { rank: number; tail: number; method: 'exact' | 'asymptotic' } {
  if (!(Number.isInteger(n) && n >= 1)) throw new RangeError(`n must be an integer ≥ 1, got ${n}`);
  const mu = (n * (n + 1)) / 4;
  if (n > EXACT_MAX_N) {
    const sigma = Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24);
    const z = normalPpf(1 - tailProbability);
    const rank = Math.max(-1, Math.floor(mu - 0.5 - z * sigma));
    // the tail it leaves, by the same approximation
    const tail = rank < 0 ? 0 : normalCdf((rank + 0.5 - mu) / sigma);
    return { rank, tail, method: 'asymptotic' };
  }
  const pmf = signedRankPmf(n);
  let cumulative = 0;
  let rank = -1;
  let tail = 0;
  for (let c = 0; c < pmf.length; c++) {
    cumulative += pmf[c]!;
    if (cumulative > tailProbability) break;
    rank = c;
    tail = cumulative;
  }
  return { rank, tail, method: 'exact' };
}

/** P(W⁺ = k), k = 0 … n(n+1)/2, for n untied ranks: every pattern of signs equally likely. */
function signedRankPmf(n: number): Float64Array {
  const total = (n * (n + 1)) / 2;
  let counts = new Float64Array(total + 1);
  counts[0] = 1;
  for (let j = 1; j <= n; j++) {
    const next = Float64Array.from(counts);
    for (let k = j; k <= total; k++) next[k] = next[k]! + counts[k - j]!;
    counts = next;
  }
  const scale = 2 ** -n;
  return counts.map((c) => c * scale);
}

/**
 * Order statistics (1-based ranks) of the Walsh averages (dᵢ + dⱼ)/2, i ≤ j, of sorted d,
 * without forming all n(n+1)/2 of them: bisection on the value, counting the averages at or
 * below it in O(n) with two pointers, until few enough candidates remain to list and sort.
 */
export function walshOrderStatistics(ascending: Float64Array, ranks: number[]): number[] {
  const n = ascending.length;
  const m = (n * (n + 1)) / 2;
  for (const r of ranks) {
    if (!(Number.isInteger(r) && r >= 1 && r <= m)) {
      throw new RangeError(`Walsh average rank must be an integer in [1, ${m}], got ${r}`);
    }
  }
  if (m <= 200_000) {
    const all = new Float64Array(m);
    let k = 0;
    for (let i = 0; i < n; i++) {
      for (let j = i; j < n; j++) all[k++] = (ascending[i]! + ascending[j]!) / 2;
    }
    all.sort();
    return ranks.map((r) => all[r - 1]!);
  }
  return ranks.map((r) => selectWalsh(ascending, r));
}

/** Walsh averages ≤ x (pairs i ≤ j with dᵢ + dⱼ ≤ 2x). O(n). */
function countAtMost(d: Float64Array, x: number): number {
  const n = d.length;
  const twice = 2 * x;
  let count = 0;
  let j = n - 1;
  for (let i = 0; i < n; i++) {
    while (j >= i && d[i]! + d[j]! > twice) j--;
    if (j < i) break;
    count += j - i + 1;
  }
  return count;
}

function selectWalsh(d: Float64Array, rank: number): number {
  const n = d.length;
  let lo = d[0]! - 1; // count(lo) = 0 < rank
  let hi = d[n - 1]!; // count(hi) = m ≥ rank
  for (let iteration = 0; iteration < 200; iteration++) {
    if (countAtMost(d, hi) - countAtMost(d, lo) <= 4 * n) break;
    const mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    if (countAtMost(d, mid) >= rank) hi = mid;
    else lo = mid;
  }
  // the answer is in (lo, hi]: list the averages there and pick
  const below = countAtMost(d, lo);
  const candidates: number[] = [];
  const twoLo = 2 * lo;
  const twoHi = 2 * hi;
  // for each i, the j ≥ i with 2lo < dᵢ + dⱼ ≤ 2hi form a range whose ends fall as i grows
  let top = n - 1; // last j with dᵢ + dⱼ ≤ 2hi
  let bottom = n - 1; // last j with dᵢ + dⱼ ≤ 2lo
  for (let i = 0; i < n; i++) {
    while (top >= 0 && d[i]! + d[top]! > twoHi) top--;
    while (bottom >= 0 && d[i]! + d[bottom]! > twoLo) bottom--;
    for (let j = Math.max(i, bottom + 1); j <= top; j++) candidates.push((d[i]! + d[j]!) / 2);
  }
  candidates.sort((a, b) => a - b);
  const value = candidates[rank - below - 1];
  if (value === undefined) throw new Error('walsh selection lost its candidates (a bug)');
  return value;
}
