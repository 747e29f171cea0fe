import type { BenchmarkResult } from '../contracts/comparison.js';
import { formatPercent, formatValue } from './numbers.js';

/**
 * An exact result (a constant on each side, e.g. allocs/op) as one short text, "12 → 13
 * allocs/op (+8.33%, exact)": two numbers and their ratio, never an interval, since there is
 * none. Whole numbers are written out in full: rounding 1,048,577 B/op to 4 digits would hide
 * the very byte that changed. `escape` escapes the unit (it comes from the tool). Pure.
 */
export function exactText(r: BenchmarkResult, escape = (text: string) => text): string {
  const { base, head } = r.exact!;
  const unit = r.unit === '' ? '' : ` ${escape(r.unit)}`;
  return `${exactNumber(base)} → ${exactNumber(head)}${unit} (${formatPercent(r.comparison!.change)}, exact)`;
}

function exactNumber(value: number): string {
  return Number.isSafeInteger(value) ? String(value) : formatValue(value);
}

/**
 * The results reports show as exact lines: exact ones whose base and head differ as written
 * (a median of 0.07 against 0.065 B/op written "0.07 → 0.07" would say nothing).
 */
export function shownExact(results: readonly BenchmarkResult[]): BenchmarkResult[] {
  return results.filter((r) => r.exact !== undefined && r.comparison !== null && exactDiffers(r));
}

/** Whether an exact result's base and head differ as the reports write them. */
export function exactDiffers(r: BenchmarkResult): boolean {
  return exactNumber(r.exact!.base) !== exactNumber(r.exact!.head);
}
