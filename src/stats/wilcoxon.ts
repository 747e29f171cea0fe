import { normalCdf, normalSf } from './normal.js';
import { ALTERNATIVES, averageRanks, checkOption, checkSample, tieTerm } from './ranks.js';
import type { Alternative } from './ranks.js';

export interface WilcoxonOptions {
  /** `greater`: the differences tend to be positive. Default `two-sided`. */
  alternative?: Alternative;
  /**
   * `auto` (default) follows scipy 1.17: `asymptotic` when d has more than 50 values; else
   * `exact` when there are no ties and no zeros; else `permutation` when d has ≤ 13 values;
   * else `asymptotic`. `permutation` may also be asked for at any size (it is exact, O(n³)).
   */
  method?: 'auto' | 'exact' | 'asymptotic' | 'permutation';
  /** Continuity correction of the normal approximation. Default false (as scipy). */
  correction?: boolean;
}

export interface WilcoxonResult {
  /** min(R⁺, R⁻) for `two-sided`, else R⁺ (scipy's statistic). */
  statistic: number;
  pValue: number;
  method: 'exact' | 'asymptotic' | 'permutation';
  /** Number of non-zero differences (zeros are dropped: zero_method='wilcox'). */
  n: number;
}

const METHODS = ['auto', 'exact', 'asymptotic', 'permutation'] as const;

/**
 * Wilcoxon signed-rank test of H₀ "d is symmetric about 0", matching
 * `scipy.stats.wilcoxon(d, zero_method='wilcox', correction, alternative, method)`.
 * duetkit applies it to the per-pair log ratios log(head/base).
 *
 * Zeros are dropped; the n remaining |dᵢ| get average ranks and R⁺ is the rank sum of the
 * positive dᵢ. The p-value is computed from R⁺:
 * - exact: the null distribution of R⁺ for n untied ranks, P(R⁺ = k) by the recurrence
 *   p_j(k) = ½·p_{j−1}(k) + ½·p_{j−1}(k − j). With ties it is only approximate, and, as in
 *   scipy, R⁺ is rounded up for the lower tail and down for the upper tail. Cost O(n³).
 * - permutation: the exact conditional distribution of R⁺ over all 2ⁿ sign flips of the tied
 *   ranks (what scipy's exhaustive `permutation_test` enumerates), by the same recurrence on
 *   doubled ranks. Cost O(n³).
 * - asymptotic: z = (R⁺ − n(n+1)/4)/σ, σ² = (n(n+1)(2n+1) − Σ(t³−t)/2)/24, optionally moved
 *   ½/σ toward 0, against the standard normal. Cost O(n log n).
 * Two-sided p-values are twice the smaller tail, clipped to 1. When every difference is zero
 * (n = 0) the p-value is 1 (scipy: NaN for the asymptotic method).
 */
export function wilcoxonSignedRank(
  d: readonly number[],
  options: WilcoxonOptions = {},
): WilcoxonResult {
  checkSample('d', d);
  const alternative = checkOption('alternative', options.alternative, ALTERNATIVES);
  const requested = checkOption('method', options.method, METHODS);
  const nonZero = d.filter((v) => v !== 0);
  const n = nonZero.length;
  const { ranks, tieSizes } = averageRanks(nonZero.map(Math.abs));
  let rPlus = 0;
  for (let i = 0; i < n; i++) if (nonZero[i]! > 0) rPlus += ranks[i]!;
  const rMinus = (n * (n + 1)) / 2 - rPlus;
  const statistic = alternative === 'two-sided' ? Math.min(rPlus, rMinus) : rPlus;
  const hasTies = tieSizes.some((t) => t > 1);

  let method: WilcoxonResult['method'];
  if (requested !== 'auto') method = requested;
  else if (d.length > 50) method = 'asymptotic';
  else if (!hasTies && n === d.length) method = 'exact';
  else method = d.length <= 13 ? 'permutation' : 'asymptotic';

  if (n === 0) return { statistic, pValue: 1, method, n };
  let less: number;
  let greater: number;
  if (method === 'asymptotic') {
    const sigma = Math.sqrt((n * (n + 1) * (2 * n + 1) - tieTerm(tieSizes) / 2) / 24);
    let z = (rPlus - (n * (n + 1)) / 4) / sigma;
    if (options.correction) {
      const sign = alternative === 'greater' ? 1 : alternative === 'less' ? -1 : Math.sign(z);
      z -= (sign * 0.5) / sigma;
    }
    less = normalCdf(z);
    greater = normalSf(z);
    if (alternative === 'two-sided') less = greater = normalSf(Math.abs(z));
  } else if (method === 'exact') {
    const tail = tailsOf(signedRankPmf(Array.from({ length: n }, (_, i) => i + 1)));
    less = tail.atMost(Math.ceil(rPlus));
    greater = tail.atLeast(Math.floor(rPlus));
  } else {
    const tail = tailsOf(signedRankPmf(ranks.map((r) => 2 * r)));
    less = tail.atMost(2 * rPlus);
    greater = tail.atLeast(2 * rPlus);
  }
  const p =
    alternative === 'less'
      ? less
      : alternative === 'greater'
        ? greater
        : 2 * Math.min(less, greater);
  return { statistic, pValue: Math.min(1, Math.max(0, p)), method, n };
}

/**
 * P(Σ sᵢ·wᵢ = k), k = 0 … Σwᵢ, for independent fair signs sᵢ ∈ {0, 1} and integer weights wᵢ.
 * Each probability is a multiple of 2⁻ⁿ, so for n ≤ 53 every value is exact. Cost O(n·Σw).
 */
function signedRankPmf(weights: readonly number[]): Float64Array {
  let total = 0;
  for (const w of weights) total += w;
  let pmf = new Float64Array(total + 1);
  pmf[0] = 1;
  let reach = 0;
  for (const w of weights) {
    const next = new Float64Array(total + 1);
    for (let k = 0; k <= reach; k++) {
      const half = pmf[k]! / 2;
      next[k] = next[k]! + half;
      next[k + w] = next[k + w]! + half;
    }
    reach += w;
    pmf = next;
  }
  return pmf;
}

/** P(X ≤ k) and P(X ≥ k), each summed over its own tail so small tails keep full precision. */
function tailsOf(pmf: Float64Array): {
  atMost(k: number): number;
  atLeast(k: number): number;
} {
  const sum = (from: number, to: number): number => {
    let s = 0;
    for (let j = Math.max(0, from); j <= Math.min(to, pmf.length - 1); j++) s += pmf[j]!;
    return s;
  };
  const mid = (pmf.length - 1) / 2;
  return {
    atMost: (k) => (k <= mid ? sum(0, k) : 1 - sum(k + 1, pmf.length - 1)),
    atLeast: (k) => (k >= mid ? sum(k, pmf.length - 1) : 1 - sum(0, k - 1)),
  };
}
