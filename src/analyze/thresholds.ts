/**
 * Which practical threshold judges a result (`analysis.threshold` and `analysis.thresholds`):
 * a threshold given for the benchmark's full name, else one given for its kind of metric
 * (`time`, `memory`), else the run's `threshold`. The kind comes from the unit alone.
 */

/** The kinds of metric `analysis.thresholds` may name. */
export const METRIC_KINDS = ['time', 'memory'] as const;
export type MetricKind = (typeof METRIC_KINDS)[number];

/** A time per something: `ns/op` (go), `ms` (a command), `us/iter` (Google Benchmark), `s`. */
const TIME_UNIT = /^(ps|ns|us|µs|μs|ms|s|sec|min|h)(\/(op|iter|call|run|it))?$/i;

/**
 * A size or a count of allocations: `KiB` (peak RSS), go's `B/op` and `allocs/op`, JMH's
 * `B/op` (`gc.alloc.rate.norm`), Google Benchmark's `B` and `allocs/iter` (its memory manager).
 */
const MEMORY_UNIT = /^(B|bytes|KB|KiB|MB|MiB|GB|GiB|allocs|objects)(\/(op|iter))?$/i;

/** The kind of metric a unit measures, or null (throughput, scores, counters...). */
export function metricKind(unit: string): MetricKind | null {
  if (TIME_UNIT.test(unit)) return 'time';
  if (MEMORY_UNIT.test(unit)) return 'memory';
  return null;
}

/** The threshold of one result: by its name, else by its unit's kind, else the default. */
export function thresholdFor(
  benchmark: string,
  unit: string,
  threshold: number,
  thresholds: Readonly<Record<string, number>> | undefined,
): number {
  if (thresholds === undefined) return threshold;
  const byName = thresholds[benchmark];
  if (byName !== undefined) return byName;
  const kind = metricKind(unit);
  return (kind === null ? undefined : thresholds[kind]) ?? threshold;
}
