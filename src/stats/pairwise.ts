import { adjustPValues } from './adjust.js';
import { mannWhitneyU } from './mann-whitney.js';
import type { Adjustment } from './types.js';

/** Pairwise comparisons of k groups: symmetric k × k matrices, null on the diagonal. */
export interface PairwiseMatrix {
  /** Raw two-sided p-values. */
  pValues: (number | null)[][];
  /** The same, adjusted together over the k(k−1)/2 pairs. */
  adjusted: (number | null)[][];
  adjustment: Adjustment;
  test: 'mann-whitney-u';
}

/**
 * Two-sided Mann–Whitney U test of every pair of groups (scipy's `mannwhitneyu` defaults:
 * continuity correction, exact for small samples without ties), the k(k−1)/2 p-values adjusted
 * as one family (Holm by default) — the same as scikit-posthocs' `posthoc_mannwhitney(...,
 * p_adjust='holm')`, and the p-value matrices of Henning et al. (FSE'25, Tables 2–3) with the
 * multiple-comparison control they lack. Cost O(k² · N log N).
 */
export function pairwiseMannWhitney(
  groups: readonly (readonly number[])[],
  adjustment: Adjustment = 'holm',
): PairwiseMatrix {
  const k = groups.length;
  const pairs: [number, number][] = [];
  for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) pairs.push([i, j]);
  const raw = pairs.map(([i, j]) => mannWhitneyU(groups[i]!, groups[j]!).pValue);
  const adjusted = adjustPValues(raw, adjustment);
  const matrix = (values: readonly number[]): (number | null)[][] => {
    const m = Array.from({ length: k }, () => new Array<number | null>(k).fill(null));
    pairs.forEach(([i, j], index) => {
      m[i]![j] = values[index]!;
      m[j]![i] = values[index]!;
    });
    return m;
  };
  return { pValues: matrix(raw), adjusted: matrix(adjusted), adjustment, test: 'mann-whitney-u' };
}
