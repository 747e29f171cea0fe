import { normalSf } from './normal.js';
import { ALTERNATIVES, averageRanks, checkOption, checkSample, tieTerm } from './ranks.js';
import type { Alternative } from './ranks.js';

export interface MannWhitneyOptions {
  /** `less`: x tends to be smaller than y. Default `two-sided`. */
  alternative?: Alternative;
  /**
   * `auto` (default) picks `exact` when there are no ties and either sample has ≤ 8 values,
   * else `asymptotic` — scipy ≥ 1.7's rule (`_mwu_choose_method`, unchanged in scipy 1.17).
   */
  method?: 'auto' | 'exact' | 'asymptotic';
  /** Continuity correction of the normal approximation. Default true. */
  useContinuity?: boolean;
}

export interface MannWhitneyResult {
  /** U of x: the number of pairs (xᵢ, yⱼ) with xᵢ > yⱼ, ties counting ½ (scipy's statistic). */
  statistic: number;
  pValue: number;
  method: 'exact' | 'asymptotic';
}

const METHODS = ['auto', 'exact', 'asymptotic'] as const;

/**
 * Mann–Whitney U test of x against y, with the same results as
 * `scipy.stats.mannwhitneyu(x, y, use_continuity, alternative, method)`.
 *
 * U₁ = R₁ − n₁(n₁+1)/2 with R₁ the sum of x's average ranks in the pooled sample. The p-value
 * is P(U ≥ u) under H₀ for u = U₁ (greater), U₂ = n₁n₂ − U₁ (less), or 2·P(U ≥ max(U₁, U₂))
 * (two-sided), clipped to 1.
 * - exact: the null distribution of U (no ties), see {@link mannWhitneyExactSf}; with ties the
 *   statistic is truncated to an integer first, as scipy does.
 * - asymptotic: z = (u − n₁n₂/2 − ½)/σ with σ² = n₁n₂/12·((N+1) − Σ(t³−t)/(N(N−1))), N = n₁+n₂
 *   (tie-corrected), p = Q(z). If every value is tied (σ = 0) the p-value is 1 (scipy: NaN
 *   without continuity correction).
 *
 * Cost O(N log N) for the ranks, plus O(min(n₁,n₂)·u) big-integer additions for `exact`.
 */
export function mannWhitneyU(
  x: readonly number[],
  y: readonly number[],
  options: MannWhitneyOptions = {},
): MannWhitneyResult {
  checkSample('x', x);
  checkSample('y', y);
  const alternative = checkOption('alternative', options.alternative, ALTERNATIVES);
  const requested = checkOption('method', options.method, METHODS);
  const useContinuity = options.useContinuity ?? true;
  const n1 = x.length;
  const n2 = y.length;
  const { ranks, tieSizes } = averageRanks([...x, ...y]);
  let r1 = 0;
  for (let i = 0; i < n1; i++) r1 += ranks[i]!;
  const u1 = r1 - (n1 * (n1 + 1)) / 2;
  const u2 = n1 * n2 - u1;
  const u = alternative === 'greater' ? u1 : alternative === 'less' ? u2 : Math.max(u1, u2);
  const factor = alternative === 'two-sided' ? 2 : 1;
  const hasTies = tieSizes.some((t) => t > 1);
  const method =
    requested === 'auto' ? ((n1 > 8 && n2 > 8) || hasTies ? 'asymptotic' : 'exact') : requested;

  let p: number;
  if (method === 'exact') {
    p = mannWhitneyExactSf(Math.floor(u), n1, n2);
  } else {
    const n = n1 + n2;
    const sigma = Math.sqrt(((n1 * n2) / 12) * (n + 1 - tieTerm(tieSizes) / (n * (n - 1))));
    const numerator = u - (n1 * n2) / 2 - (useContinuity ? 0.5 : 0);
    p = sigma > 0 ? normalSf(numerator / sigma) : 1;
  }
  return { statistic: u1, pValue: Math.min(1, Math.max(0, p * factor)), method };
}

/**
 * P(U ≥ u) for the Mann–Whitney statistic of samples of sizes n₁, n₂ without ties.
 *
 * The counts c(k) of arrangements with U = k are the coefficients of the Gaussian binomial
 * [n₁+n₂ choose m]_q = ∏_{i=1..m} (1 − q^{n+i})/(1 − q^i), m = min(n₁,n₂), n = max(n₁,n₂)
 * (Mann & Whitney 1947; Andrews, The Theory of Partitions, 3.3). Each factor is applied to
 * the series truncated at the needed degree: × (1 − q^{n+i}) is one subtraction per term,
 * ÷ (1 − q^i) one running sum. Counting in BigInt keeps every count exact, so both tails are
 * exact and only the final ratio is rounded. By symmetry c(k) = c(n₁n₂ − k), so the shorter
 * tail is summed. Cost O(m·k) big-integer additions, k = min(u, n₁n₂ − u + 1) ≤ n₁n₂/2.
 */
export function mannWhitneyExactSf(u: number, n1: number, n2: number): number {
  const total = n1 * n2;
  if (u <= 0) return 1;
  if (u > total) return 0;
  // P(U ≥ u) = P(U ≤ total − u) by symmetry; else 1 − P(U ≤ u − 1).
  const upper = u > total - u;
  const k = upper ? total - u : u - 1;
  const m = Math.min(n1, n2);
  const n = Math.max(n1, n2);
  const c = new Array<bigint>(k + 1).fill(0n);
  c[0] = 1n;
  for (let i = 1; i <= m; i++) {
    for (let j = k; j >= n + i; j--) c[j] = c[j]! - c[j - n - i]!;
    for (let j = i; j <= k; j++) c[j] = c[j]! + c[j - i]!;
  }
  let below = 0n;
  for (const v of c) below += v;
  const all = binomialBig(n1 + n2, m);
  return upper ? bigRatio(below, all) : bigRatio(all - below, all);
}

/** C(n, k) exactly. Cost O(k) big-integer operations. */
function binomialBig(n: number, k: number): bigint {
  let result = 1n;
  for (let i = 1; i <= k; i++) result = (result * BigInt(n - k + i)) / BigInt(i);
  return result;
}

/** a/b for 0 ≤ a ≤ b as a double, correct to ~1 ulp even when a or b exceed 2^1024. */
function bigRatio(a: bigint, b: bigint): number {
  if (a === 0n) return 0;
  const [ma, ea] = toScaled(a);
  const [mb, eb] = toScaled(b);
  return (ma / mb) * 2 ** (ea - eb);
}

/** [mantissa, exponent] with value ≈ mantissa·2^exponent and mantissa < 2^64. */
function toScaled(v: bigint): [number, number] {
  const bits = v.toString(2).length;
  const shift = Math.max(0, bits - 64);
  return [Number(v >> BigInt(shift)), shift];
}
