/**
 * A one-line text forest plot of a relative change and its confidence interval, for
 * monospace contexts (inline code in a markdown table): `┈┈┆┈┈┈│┈┈┈┆━━●━━━┈┈`. Pure.
 */

export interface BarScale {
  /** The bar spans −limit … +limit (fractions). */
  limit: number;
  /** Characters in the bar; odd, so that zero has a column of its own. */
  width: number;
}

export const BAR_GLYPHS = {
  track: '┈',
  zero: '│',
  threshold: '┆',
  interval: '━',
  estimate: '●',
  clipLeft: '◂',
  clipRight: '▸',
} as const;

const NICE_LIMITS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10];

/** The smallest "nice" symmetric scale showing every interval and the threshold. */
export function chooseScale(
  intervals: readonly { lower: number; upper: number }[],
  threshold: number,
  width = 25,
): BarScale {
  const extent = Math.max(
    threshold * 2,
    ...intervals.flatMap((i) => [Math.abs(i.lower), Math.abs(i.upper)]).filter(Number.isFinite),
  );
  const limit = NICE_LIMITS.find((l) => l >= extent) ?? NICE_LIMITS.at(-1)!;
  return { limit, width: width % 2 === 0 ? width + 1 : width };
}

/** The bar of one change; ends beyond the scale are drawn as arrows at the edge. */
export function intervalBar(
  change: number,
  lower: number,
  upper: number,
  threshold: number,
  scale: BarScale,
): string {
  const { width, limit } = scale;
  const half = (width - 1) / 2;
  // Rounded away from zero on both sides alike, so ±threshold sit symmetrically around zero.
  const column = (x: number): number =>
    Math.min(
      width - 1,
      Math.max(0, half + Math.sign(x) * Math.round((Math.abs(x) / limit) * half)),
    );
  const cells: string[] = Array.from({ length: width }, () => BAR_GLYPHS.track);
  cells[column(0)] = BAR_GLYPHS.zero;
  cells[column(-threshold)] = BAR_GLYPHS.threshold;
  cells[column(threshold)] = BAR_GLYPHS.threshold;
  for (let i = column(lower); i <= column(upper); i++) cells[i] = BAR_GLYPHS.interval;
  if (lower < -limit) cells[0] = BAR_GLYPHS.clipLeft;
  if (upper > limit) cells[width - 1] = BAR_GLYPHS.clipRight;
  cells[column(change)] = BAR_GLYPHS.estimate;
  return cells.join('');
}
