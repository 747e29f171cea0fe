import { median } from '../stats/descriptive.js';

/**
 * Units of counts and sizes (go's -benchmem `B/op` and `allocs/op`, JMH's `B/op` of
 * `gc.alloc.rate.norm`, Google Benchmark's memory manager's `allocs/iter` and `B`, a byte or
 * object count): deterministic for a given build, so one value per side is already the
 * answer. Not KiB: a peak RSS (`workload.metric: rss`) varies from run to run.
 */
const COUNT_UNIT = /^(B|KB|MB|bytes|allocs|objects|count)(\/(op|iter))?$/i;

/** Whether `unit` is a count or a size (COUNT_UNIT), not a time or a rate. */
export function isCountUnit(unit: string): boolean {
  return COUNT_UNIT.test(unit);
}

/** How a trial's several values become the one its side of a pair has. */
export interface TrialReduction {
  unit: string;
  biggerIsBetter: boolean;
  /** The metric's `reduce` (TrialMetric): `fastest`, or absent for the median. */
  reduce?: 'fastest';
}

/**
 * The one value of a trial that reported several. `fastest` — the values are timed parts of
 * one process's work (a suite's `within: fastest`) — takes the least time, or the most
 * throughput where bigger is better: a shared machine only ever slows a part down (a
 * neighbour's work on the same core, a descheduled vCPU), never speeds it up, so the fastest
 * part is the one it touched least. On this project's 2-vCPU VM, twelve fastjson benchmarks'
 * A/A pair ratios, back to back on one CPU, scattered by 1.8% (median robust sd) as the
 * fastest of ten parts of 20 ms of work, 2.5% as their median, 4.4% as their mean, and 3.2% as
 * one run of all of it (`npm run bench:noise-floor -- --parts 10`; BENCHMARKS.md, "Large
 * suites"). Counts (isCountUnit) keep their median: a process's first part allocates what the
 * later ones do not, and the fewest is not the benchmark's count. Otherwise the median.
 * Throws on no values (a trial always has at least one).
 */
export function trialValue(values: readonly number[], metric: TrialReduction): number {
  if (values.length === 0) throw new RangeError('a trial value needs at least one value');
  if (values.length === 1) return values[0]!;
  if (metric.reduce === 'fastest' && !isCountUnit(metric.unit)) {
    return metric.biggerIsBetter ? Math.max(...values) : Math.min(...values);
  }
  return median(values);
}
