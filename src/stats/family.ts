import { adjustPValues } from './adjust.js';
import type { Adjustment, Comparison } from './types.js';
import { decideVerdict } from './verdict.js';

/**
 * Treats comparisons of several benchmarks from one run as one family of tests: adjusts their
 * p-values (Holm by default: family-wise error; `bh`: false discovery rate) and re-decides
 * each verdict with its adjusted p-value. Returns new objects; the inputs are not modified.
 */
export function adjustFamily(
  comparisons: readonly Comparison[],
  method: Adjustment = 'holm',
): Comparison[] {
  const adjusted = adjustPValues(
    comparisons.map((c) => c.test.pValue),
    method,
  );
  return comparisons.map((c, i) =>
    withTest(c, { ...c.test, pValueAdjusted: adjusted[i]!, adjustment: method }),
  );
}

/** The comparison with another test result (an adjusted p-value), its verdict decided again. */
export function withTest(c: Comparison, test: Comparison['test']): Comparison {
  const decision = decideVerdict({
    change: c.change,
    lower: c.ci.lower,
    upper: c.ci.upper,
    threshold: c.threshold,
    pValueAdjusted: test.pValueAdjusted,
    alpha: 1 - c.ci.level,
    biggerIsBetter: c.biggerIsBetter,
    n: Math.min(c.n.base, c.n.head),
    ...(c.ci.sequential?.callFloor === undefined
      ? {}
      : { minPairsToCall: c.ci.sequential.callFloor }),
  });
  return { ...c, test, ...decision };
}
