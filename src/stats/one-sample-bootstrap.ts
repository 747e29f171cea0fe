import { coefficientOfVariation, mean, medianInPlace } from './descriptive.js';
import { bootstrapInterval } from './interval.js';
import { checkSample } from './ranks.js';
import { createRng } from './rng.js';
import type { IntervalMethod } from './types.js';

/** Statistics of one sample that a bootstrap interval can be put on. */
export type OneSampleStatistic = 'median' | 'mean' | 'cv';

export interface OneSampleOptions {
  /** Confidence level in (0, 1). Default 0.95. */
  level?: number;
  /** Bootstrap resamples. Default 10,000. */
  resamples?: number;
  /** Seed of the generator (recorded in the result). Default 1. */
  seed?: number;
  /** `bca` (default) or `percentile`. */
  method?: IntervalMethod;
}

/** A statistic of one sample with its bootstrap interval (plain JSON). */
export interface StatisticInterval {
  statistic: OneSampleStatistic;
  estimate: number;
  lower: number;
  upper: number;
  level: number;
  method: IntervalMethod;
  resamples: number;
  seed: number;
  n: number;
  note?: string;
}

const STATISTICS: readonly OneSampleStatistic[] = ['median', 'mean', 'cv'];

/**
 * Bootstrap interval of the median, mean or coefficient of variation (sd/|mean|, Bessel's
 * n − 1) of one sample: the sample is resampled with replacement `resamples` times, and the
 * interval is the percentile or BCa interval of the resampled statistics (Efron & Tibshirani
 * 1993, §13 and §14.3; the same definitions as `scipy.stats.bootstrap((x,), ...)`, whose
 * intervals it matches within Monte Carlo error). BCa's acceleration comes from the
 * leave-one-out jackknife. With fewer than 2 values there is no interval: the bounds are the
 * estimate and `note` says why. Cost O(resamples · n).
 */
export function bootstrapOneSample(
  values: readonly number[],
  statistic: OneSampleStatistic,
  options: OneSampleOptions = {},
): StatisticInterval {
  checkSample('values', values);
  if (!STATISTICS.includes(statistic)) {
    throw new RangeError(`statistic must be one of ${STATISTICS.join(', ')}, got ${statistic}`);
  }
  const level = options.level ?? 0.95;
  const resamples = options.resamples ?? 10_000;
  const seed = options.seed ?? 1;
  const method = options.method ?? 'bca';
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1), got ${level}`);
  if (!(Number.isInteger(resamples) && resamples >= 100)) {
    throw new RangeError(`resamples must be an integer ≥ 100, got ${resamples}`);
  }
  const data = Float64Array.from(values);
  const n = data.length;
  const estimate = statisticOf(data, n, statistic);
  const base = { statistic, estimate, level, resamples, seed, n };
  if (n < 2) {
    return {
      ...base,
      lower: estimate,
      upper: estimate,
      method,
      note: 'one value: no interval',
    };
  }
  const rng = createRng(seed).jumped();
  const distribution = new Float64Array(resamples);
  const scratch = new Float64Array(n);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < n; i++) scratch[i] = data[rng.nextIndex(n)]!;
    distribution[r] = statisticOf(scratch, n, statistic);
  }
  const jackknife = new Float64Array(n);
  const rest = new Float64Array(n - 1);
  for (let leave = 0; leave < n; leave++) {
    for (let i = 0, k = 0; i < n; i++) if (i !== leave) rest[k++] = data[i]!;
    jackknife[leave] = statisticOf(rest, n - 1, statistic);
  }
  const ends = bootstrapInterval(
    { observed: estimate, distribution, jackknife: [jackknife] },
    level,
    method,
  );
  return {
    ...base,
    lower: ends.lower,
    upper: ends.upper,
    method: ends.method,
    ...(ends.note === undefined ? {} : { note: ends.note }),
  };
}

/** The statistic of xs[0..n) (reorders xs for the median). */
function statisticOf(xs: Float64Array, n: number, statistic: OneSampleStatistic): number {
  const view = n === xs.length ? xs : xs.subarray(0, n);
  if (statistic === 'mean') return mean(view);
  if (statistic === 'cv') return coefficientOfVariation(view);
  return n === 1 ? view[0]! : medianInPlace(view);
}
