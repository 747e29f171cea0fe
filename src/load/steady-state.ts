import type { StreamSpec } from '../scenario/service-schema.js';
import { median } from '../stats/descriptive.js';
import { mserTruncation } from '../stats/mser.js';
import type { StreamSample } from './stream-samples.js';

/** One metric of one stream run, trimmed to its steady state and summarised. */
export interface SteadyState {
  name: string;
  unit: string;
  biggerIsBetter: boolean;
  /** The mean (or median) of the kept samples. */
  value: number;
  samples: number;
  kept: number;
  /** Seconds cut at the start and at the end. */
  warmupSeconds: number;
  cooldownSeconds: number;
}

/**
 * ShuffleBench's method (Henning et al. 2024/2025): drop the warm-up, where throughput is not
 * yet stable (they cut the first 3 of 15 minutes), and a cool-down at the end, then average
 * the rest. Each cut is a fixed duration (from the first sample, before the last) or
 * `detect`: MSER-5 on the series (on the reversed series for the cool-down), which places the
 * cut where the rest has the smallest standard error of its mean. Throws, naming the metric,
 * when too few samples remain or the direction of a metric is unknown.
 */
export function steadyStates(samples: readonly StreamSample[], spec: StreamSpec): SteadyState[] {
  const names = [...new Set(samples.map((s) => s.name))];
  if (names.length === 0) throw new Error('printed no samples');
  return names.map((name) => {
    const series = samples.filter((s) => s.name === name).sort((a, b) => a.t - b.t);
    const first = series[0]!.t;
    const last = series.at(-1)!.t;
    let from = 0;
    if (spec.warmup === 'detect') from = mserTruncation(series.map((s) => s.value));
    else if (spec.warmup !== 0) {
      from = series.findIndex((s) => s.t >= first + (spec.warmup as number));
      if (from < 0) from = series.length;
    }
    let to = series.length;
    const rest = series.slice(from);
    if (spec.cooldown === 'detect') to -= mserTruncation(rest.map((s) => s.value).reverse());
    else if (spec.cooldown !== 0) {
      const limit = last - spec.cooldown;
      while (to > from && series[to - 1]!.t > limit) to--;
    }
    const kept = series.slice(from, to);
    if (kept.length < spec.minSamples) {
      throw new Error(
        `"${name}": ${kept.length} of its ${series.length} samples are left after trimming (workload.stream.minSamples is ${spec.minSamples}); run it longer or trim less`,
      );
    }
    const values = kept.map((s) => s.value);
    const declared = spec.metrics[name];
    const biggerIsBetter =
      declared?.biggerIsBetter ??
      series.find((s) => s.biggerIsBetter !== undefined)?.biggerIsBetter ??
      spec.biggerIsBetter;
    if (biggerIsBetter === undefined) {
      throw new Error(
        `"${name}": say whether bigger values are better: workload.stream.metrics.${name}.biggerIsBetter, or workload.stream.biggerIsBetter for every metric (true for a throughput, false for a latency)`,
      );
    }
    return {
      name,
      unit: declared?.unit || series.find((s) => s.unit !== undefined)?.unit || '',
      biggerIsBetter,
      value:
        spec.aggregate === 'median'
          ? median(values)
          : values.reduce((a, b) => a + b, 0) / values.length,
      samples: series.length,
      kept: kept.length,
      warmupSeconds: from === 0 ? 0 : kept[0]!.t - first,
      cooldownSeconds: to === series.length ? 0 : last - kept.at(-1)!.t,
    };
  });
}
