import { chiSquaredSf } from './chi-squared.js';
import { averageRanks, checkSample, tieTerm } from './ranks.js';

export interface KruskalResult {
  /** H, corrected for ties. */
  statistic: number;
  /** Degrees of freedom, groups − 1. */
  df: number;
  pValue: number;
  /** Total number of values. */
  n: number;
  /** 1 − Σ(t³ − t)/(N³ − N), the factor H was divided by (1 without ties). */
  tieCorrection: number;
}

/**
 * Kruskal–Wallis H test that k ≥ 2 groups come from the same distribution, as
 * `scipy.stats.kruskal(*groups)`:
 *
 *   H = [12/(N(N+1)) Σᵢ Rᵢ²/nᵢ − 3(N+1)] / (1 − Σ(t³ − t)/(N³ − N)),
 *
 * Rᵢ the sum of group i's average ranks in the pooled sample, t the sizes of the tie groups;
 * p = P(χ²_{k−1} ≥ H) (the asymptotic distribution; Kruskal & Wallis 1952). When every value
 * is the same there is no evidence of a difference: H = 0, p = 1 (scipy returns NaN).
 * Cost O(N log N).
 */
export function kruskalWallis(groups: readonly (readonly number[])[]): KruskalResult {
  if (!Array.isArray(groups) || groups.length < 2) {
    throw new RangeError(`kruskalWallis needs at least 2 groups, got ${groups?.length ?? 0}`);
  }
  groups.forEach((g, i) => checkSample(`groups[${i}]`, g));
  const pooled = groups.flat();
  const n = pooled.length;
  const { ranks, tieSizes } = averageRanks(pooled);
  const tieCorrection = 1 - tieTerm(tieSizes) / (n * n * n - n);
  let ssbn = 0;
  let offset = 0;
  for (const g of groups) {
    let sum = 0;
    for (let i = 0; i < g.length; i++) sum += ranks[offset + i]!;
    ssbn += (sum * sum) / g.length;
    offset += g.length;
  }
  const df = groups.length - 1;
  if (!(tieCorrection > 0)) return { statistic: 0, df, pValue: 1, n, tieCorrection: 0 };
  const statistic = ((12 / (n * (n + 1))) * ssbn - 3 * (n + 1)) / tieCorrection;
  return { statistic, df, pValue: chiSquaredSf(statistic, df), n, tieCorrection };
}
