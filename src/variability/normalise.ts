import { median } from '../stats/descriptive.js';
import type { SeriesPoint } from './series.js';

/**
 * Each value relative to its segment's median (value/median − 1), segments being the runs
 * between change points: the variability left once main's own steps are taken out, so a
 * regression on main does not pass for noise or for an hour-of-day pattern. Pure.
 */
export function relativeToSegments(
  points: readonly SeriesPoint[],
  segments: readonly [number, number][],
): number[] {
  const out = new Array<number>(points.length);
  for (const [s, e] of segments) {
    const m = median(points.slice(s, e).map((p) => p.value));
    for (let i = s; i < e; i++) out[i] = m === 0 ? 0 : points[i]!.value / m - 1;
  }
  return out;
}
