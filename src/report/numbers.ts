import type { Comparison } from '../stats/types.js';

/** Number formatting shared by the renderers (pure). */

/** A relative change as a signed percentage: 0.0521 → "+5.21%". */
export function formatPercent(fraction: number, digits = 2): string {
  if (!Number.isFinite(fraction)) return String(fraction);
  const pct = fraction * 100;
  const text = pct.toFixed(digits);
  if (Number(text) === 0) return `${(0).toFixed(digits)}%`;
  return `${pct > 0 ? '+' : ''}${text}%`;
}

/** A confidence interval of relative changes: "[+3.10%, +7.40%]". */
export function formatInterval(lower: number, upper: number, digits = 2): string {
  return `[${formatPercent(lower, digits)}, ${formatPercent(upper, digits)}]`;
}

/** A measured value with 4 significant digits and its unit: "12.35 ms". */
export function formatValue(value: number, unit = ''): string {
  const abs = Math.abs(value);
  let text: string;
  if (abs !== 0 && (abs >= 1e6 || abs < 1e-3)) text = value.toExponential(3);
  else text = Number(value.toPrecision(4)).toString();
  return unit === '' ? text : `${text} ${unit}`;
}

/** A p-value: 4 significant digits, "<1e-10" below that. */
export function formatPValue(p: number): string {
  if (p < 1e-10) return '<1e-10';
  if (p < 1e-3) return p.toExponential(1);
  return p.toFixed(4);
}

/**
 * The centre a comparison's statistic refers to on one side (median, mean or geometric mean;
 * the median when the geometric mean is undefined). Also for a `NotComparable`.
 */
export function centreOf(
  c: Pick<Comparison, 'statistic' | 'base' | 'head'>,
  side: 'base' | 'head',
): number {
  const s = c[side];
  if (c.statistic === 'mean') return s.mean;
  if (c.statistic === 'gmean' && s.gmean !== null) return s.gmean;
  return s.median;
}
