import { metricKind } from '../analyze/thresholds.js';
import { formatPercent } from './numbers.js';

/** "±5%", without the sign formatPercent puts on positive values. */
export function percentText(fraction: number): string {
  return `±${formatPercent(fraction).replace('+', '')}`;
}

/**
 * The run's thresholds as the method lines say them: "±5%" alone, or with those of their own
 * (`analysis.thresholds`), "±5%; time ±2%, memory ±5%". Pure.
 */
export function settingsThresholdText(
  threshold: number,
  thresholds: Readonly<Record<string, number>> | undefined,
): string {
  const own = Object.entries(thresholds ?? {});
  if (own.length === 0) return percentText(threshold);
  return `${percentText(threshold)}; ${own.map(([key, t]) => `${key} ${percentText(t)}`).join(', ')}`;
}

/**
 * The thresholds that judged some results, grouped: "±5%" when one did, else each with what
 * it judged, by kind of metric where a kind had one threshold ("±2% (time), ±5% (memory)"),
 * else by name. Pure.
 */
export function rowsThresholdText(
  rows: readonly { name: string; unit: string; threshold: number }[],
): string {
  const values = [...new Set(rows.map((r) => r.threshold))].sort((a, b) => a - b);
  if (values.length <= 1) return percentText(values[0] ?? 0);
  const kindOf = (unit: string): string => metricKind(unit) ?? 'other';
  const split = new Set(
    [...new Set(rows.map((r) => kindOf(r.unit)))].filter(
      (kind) =>
        new Set(rows.filter((r) => kindOf(r.unit) === kind).map((r) => r.threshold)).size > 1,
    ),
  );
  const parts = values.map((t) => {
    const mine = rows.filter((r) => r.threshold === t);
    const labels = [
      ...new Set(mine.map((r) => (split.has(kindOf(r.unit)) ? r.name : kindOf(r.unit)))),
    ];
    return `${percentText(t)} (${labels.join(', ')})`;
  });
  return parts.join(', ');
}
