import { constantValue } from '../stats/exact.js';
import type { ComparisonInput } from './blocks.js';

/**
 * Units of counts and sizes (go's -benchmem `B/op` and `allocs/op`, a byte or object count):
 * deterministic for a given build, so one value per side is already the answer.
 */
const COUNT_UNIT = /^(B|KB|MB|bytes|allocs|objects|count)(\/op)?$/i;

/**
 * The constants to compare exactly (stats/exact.ts), or null for a statistical comparison.
 * Exact when each side has at least one value, all equal, and either the metric is a count
 * (COUNT_UNIT) or each side has at least two: a timing with a single value is not known to be
 * constant, only unrepeated.
 */
export function exactSides(
  input: ComparisonInput,
  unit: string,
): { base: number; head: number } | null {
  const base = constantValue(input.base);
  const head = constantValue(input.head);
  if (base === null || head === null) return null;
  const repeated = Math.min(input.base.length, input.head.length) >= 2;
  return repeated || COUNT_UNIT.test(unit) ? { base, head } : null;
}
