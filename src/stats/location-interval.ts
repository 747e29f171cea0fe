import { mean, median, sorted, standardDeviation } from './descriptive.js';
import { medianInterval } from './median-interval.js';
import { normalPpf } from './normal.js';
import type { Statistic } from './types.js';

/** One version's statistic with its confidence interval, on the values' own scale. */
/** The statistics of one sample's location (the trimmed mean is one of pair ratios only). */
export type LocationStatistic = Exclude<Statistic, 'trimmed'>;

export interface LocationEstimate {
  statistic: LocationStatistic;
  value: number;
  /** Null with fewer than two values (or a geometric mean of values that are not all > 0). */
  interval: {
    level: number;
    lower: number;
    upper: number;
    method: 'order-statistic' | 'normal';
  } | null;
}

/**
 * The statistic of one sample with a `level` confidence interval. Median: the
 * distribution-free order-statistic interval [x₍ₖ₎, x₍ₙ₊₁₋ₖ₎] (exact coverage ≥ level for
 * independent values; the whole range when n is too small to reach it). Mean: x̄ ± z·s/√n.
 * Geometric mean: exp of the same on the logs (values must be > 0; else the median is used).
 * Cost O(n log n).
 */
export function locationInterval(
  values: readonly number[],
  statistic: LocationStatistic,
  level: number,
): LocationEstimate {
  if (values.length === 0) throw new RangeError('a location estimate needs at least one value');
  if (statistic === 'gmean' && values.some((v) => !(v > 0))) statistic = 'median';
  if (statistic === 'median') {
    const ascending = sorted(values);
    const value = median(ascending);
    if (values.length < 2) return { statistic, value, interval: null };
    const { lower, upper } = medianInterval(ascending, level);
    return { statistic, value, interval: { level, lower, upper, method: 'order-statistic' } };
  }
  const xs = statistic === 'gmean' ? values.map((v) => Math.log(v)) : values;
  const centre = mean(xs);
  const back = statistic === 'gmean' ? (x: number) => Math.exp(x) : (x: number) => x;
  if (values.length < 2) return { statistic, value: back(centre), interval: null };
  const half = normalPpf(1 - (1 - level) / 2) * (standardDeviation(xs) / Math.sqrt(xs.length));
  return {
    statistic,
    value: back(centre),
    interval: { level, lower: back(centre - half), upper: back(centre + half), method: 'normal' },
  };
}
