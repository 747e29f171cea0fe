import type { SamplesFile } from '../contracts/samples.js';

/** Everything measured for one benchmark name, by version and round (warm-up excluded). */
export interface BenchmarkSeries {
  name: string;
  unit: string;
  biggerIsBetter: boolean;
  /** Whether the values are raw samples or one summary per run; null when not recorded. */
  valueKind: 'samples' | 'summary' | null;
  /** The metric this one is computed from (go's MB/s from ns/op), if any. */
  derivedFrom?: string;
  /** The values of a trial pair by position with the other versions' (TrialMetric). */
  positional: boolean;
  /** How a trial's several values become one (TrialMetric `reduce`; absent: the median). */
  reduce?: 'fastest';
  /** byVersion[v] maps a round to the values its trial produced. */
  byVersion: Map<number, number[]>[];
}

/**
 * Groups the measured trials by benchmark name, in first-seen order. A benchmark that reports
 * a different unit or direction in different trials is an error, not a silent mix.
 */
export function collectSeries(
  samples: Pick<SamplesFile, 'trials' | 'versions'>,
): BenchmarkSeries[] {
  const series = new Map<string, BenchmarkSeries>();
  for (const trial of samples.trials) {
    if (trial.warmup || trial.invalid !== undefined) continue;
    for (const metric of trial.metrics) {
      let entry = series.get(metric.name);
      if (entry === undefined) {
        entry = {
          name: metric.name,
          unit: metric.unit,
          biggerIsBetter: metric.biggerIsBetter,
          valueKind: metric.valueKind ?? null,
          positional: metric.positional === true,
          ...(metric.reduce === undefined ? {} : { reduce: metric.reduce }),
          ...(metric.derivedFrom === undefined ? {} : { derivedFrom: metric.derivedFrom }),
          byVersion: samples.versions.map(() => new Map<number, number[]>()),
        };
        series.set(metric.name, entry);
      } else if (entry.unit !== metric.unit || entry.biggerIsBetter !== metric.biggerIsBetter) {
        throw new RangeError(
          `benchmark "${metric.name}" is reported in ${JSON.stringify(entry.unit)} and in ${JSON.stringify(metric.unit)} (or with both directions); every trial must agree`,
        );
      }
      const rounds = entry.byVersion[trial.version]!;
      // mct and single revisit a round number per version only once, so keys do not collide.
      rounds.set(trial.round, [...(rounds.get(trial.round) ?? []), ...metric.values]);
    }
  }
  return [...series.values()];
}
