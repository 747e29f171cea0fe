import { median } from '../stats/descriptive.js';
import { constantValue } from '../stats/exact.js';
import type { ComparisonInput } from './blocks.js';
import { isCountUnit } from './trial-value.js';

/**
 * The constants to compare exactly (stats/exact.ts), or null for a statistical comparison.
 * Exact when each side has at least one value, all equal, and either the metric is a count
 * (isCountUnit) or each side has at least two: a timing with a single value is not known to be
 * constant, only unrepeated. A count that varies (go reports the allocations of a benchmark's
 * first repetition in a process, before its pools are warm, and 0 B/op after) is compared
 * exactly too, as the median of each side — the steady count per operation — and says so
 * (`varying`): a count is no timing to put an interval on.
 */
export function exactSides(
  input: ComparisonInput,
  unit: string,
): { base: number; head: number; varying?: true } | null {
  const base = constantValue(input.base);
  const head = constantValue(input.head);
  const count = isCountUnit(unit);
  if (base === null || head === null) {
    if (!count || input.base.length === 0 || input.head.length === 0) return null;
    return { base: median(input.base), head: median(input.head), varying: true };
  }
  const repeated = Math.min(input.base.length, input.head.length) >= 2;
  return repeated || count ? { base, head } : null;
}
