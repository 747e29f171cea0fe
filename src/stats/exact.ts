import { resolveCompareOptions } from './compare.js';
import { NotComparableError } from './ratio.js';
import {
  COMPARISON_SCHEMA_VERSION,
  type CompareOptions,
  type Comparison,
  type SideSummary,
} from './types.js';
import { decideVerdict } from './verdict.js';

/**
 * The one value every element of `values` has, or null when they differ, are empty or are
 * not finite. A constant side (go's allocs/op, a byte count) is measured without noise. O(n).
 */
export function constantValue(values: readonly number[]): number | null {
  const first = values[0];
  if (first === undefined || !Number.isFinite(first)) return null;
  return values.every((v) => v === first) ? first : null;
}

/**
 * Compares two sides that are each one constant (every base value b, every head value h):
 * there is no sampling error to bound, so the change h/b − 1 is exact, its "interval" is
 * [change, change], the test is marked `exact` (p = 0 when they differ, 1 when equal) and the
 * verdict is the threshold's alone: beyond it in the worse direction a regression, in the
 * better one an improvement, else unchanged (the sign flips for bigger-is-better metrics, as
 * in `decideVerdict`). One value per side is enough. Both 0 is a change of 0; a base of 0
 * against a head above 0, or a negative value, forms no ratio (`NotComparableError`, as
 * `compare` throws). Pure, O(n).
 */
export function exactComparison(
  base: readonly number[],
  head: readonly number[],
  options: CompareOptions = {},
): Comparison {
  const o = resolveCompareOptions(options);
  const b = constantSide(base, 'base');
  const h = constantSide(head, 'head');
  if (o.paired && base.length !== head.length) {
    throw new RangeError(
      `a paired comparison needs as many head values as base values; base has ${base.length}, head has ${head.length}`,
    );
  }
  const problem = ratioProblemOf(b, h);
  if (problem !== null) {
    throw new NotComparableError({
      reason: problem,
      statistic: o.statistic,
      base: summaryOf(b, base.length),
      head: summaryOf(h, head.length),
    });
  }
  const equal = b === h;
  const change = equal ? 0 : h / b - 1;
  const pValue = equal ? 1 : 0;
  const { verdict } = decideVerdict({
    change,
    lower: change,
    upper: change,
    threshold: o.threshold,
    pValueAdjusted: pValue,
    alpha: 1 - o.level,
    biggerIsBetter: o.biggerIsBetter,
    n: Math.min(base.length, head.length),
  });
  return {
    schemaVersion: COMPARISON_SCHEMA_VERSION,
    change,
    ci: {
      level: o.level,
      lower: change,
      upper: change,
      method: o.method,
      resamples: 0,
      seed: o.seed,
      bootstrap: o.paired ? 'paired' : 'unpaired',
    },
    test: {
      name: 'exact',
      method: 'exact',
      statistic: h - b,
      pValue,
      pValueAdjusted: pValue,
      adjustment: 'none',
    },
    ks: { statistic: equal ? 0 : 1, pValue, method: 'exact' },
    n: { base: base.length, head: head.length },
    cv: { base: 0, head: 0 },
    base: summaryOf(b, base.length),
    head: summaryOf(h, head.length),
    paired: o.paired,
    statistic: o.statistic,
    biggerIsBetter: o.biggerIsBetter,
    threshold: o.threshold,
    // any change at all is seen: there is no noise to hide one
    mde: 0,
    power: o.power,
    verdict,
    moreSamplesNeeded: null,
    seed: o.seed,
    notes: [
      `every base value is ${b} and every head value is ${h}: compared exactly, without an interval or a test`,
    ],
  };
}

function constantSide(values: readonly number[], label: string): number {
  if (values.length === 0) throw new RangeError(`${label}: needs at least 1 value, got 0`);
  const value = constantValue(values);
  if (value === null) {
    throw new RangeError(
      `${label}: an exact comparison needs one finite value repeated, got ${values.slice(0, 5).join(', ')}${values.length > 5 ? ', ...' : ''}`,
    );
  }
  return value;
}

/** As `ratioProblem` (ratio.ts), for constant sides. */
function ratioProblemOf(b: number, h: number): string | null {
  if (b < 0)
    return `base value is ${b}: a relative change (head/base − 1) needs values that are not negative`;
  if (h < 0)
    return `head value is ${h}: a relative change (head/base − 1) needs values that are not negative`;
  if (b === 0 && h !== 0) {
    return 'base values are all 0: a relative change (head/base − 1) is undefined';
  }
  return null;
}

function summaryOf(value: number, n: number): SideSummary {
  return {
    n,
    median: value,
    mean: value,
    gmean: value > 0 ? value : null,
    sd: 0,
    cv: 0,
    mad: 0,
    min: value,
    max: value,
  };
}
