import type { SamplesFile } from '../contracts/samples.js';
import type { StopReason } from '../contracts/stop-reason.js';
import { belongsTo } from '../contracts/suite-record.js';
import type { ComparisonInput } from './blocks.js';
import { uncompared } from './report.js';
import type { BenchmarkResult } from '../contracts/comparison.js';

/**
 * A time budget that ends a run leaves some benchmarks with too few values to compare: that
 * is the run doing what it was told, not a failure, so they are `unmeasured`
 * (contracts/comparison.ts), not errors. A crash, a tool failure or a benchmark a version does
 * not list stays an error.
 */

/**
 * Whether a metric's values were cut short by the budget: the whole run stopped on it, or the
 * suite unit or per-benchmark run the metric belongs to did. Built once per analysis:
 * O(trials · metrics) to map metrics to their benchmark.
 */
export function budgetStopped(samples: SamplesFile): (metric: string) => boolean {
  if (samples.stopReason === 'budget') return () => true;
  const byBenchmark = new Map<string, StopReason>();
  for (const run of samples.perBenchmark?.runs ?? [])
    byBenchmark.set(run.benchmark, run.stopReason);
  for (const unit of samples.suite?.units ?? []) byBenchmark.set(unit.name, unit.stopReason);
  if (byBenchmark.size === 0) return () => false;
  const ranBy = new Map<string, string>();
  for (const trial of samples.trials) {
    if (trial.benchmark === undefined) continue;
    for (const m of trial.metrics) if (!ranBy.has(m.name)) ranBy.set(m.name, trial.benchmark);
  }
  return (metric) => {
    const benchmark =
      ranBy.get(metric) ?? [...byBenchmark.keys()].find((name) => belongsTo(metric, name));
    return benchmark !== undefined && byBenchmark.get(benchmark) === 'budget';
  };
}

/**
 * Why a comparison input is short of values under the budget (fewer than 2 pairs, or than 2
 * values on a side when unpaired), or null when it has enough for an interval.
 */
export function shortOfValues(input: ComparisonInput, budget: number | undefined): string | null {
  const n = Math.min(input.base.length, input.head.length);
  if (n >= 2) return null;
  const within = budgetText(budget);
  if (n === 0) return notReached(within, input.paired);
  const what = input.paired ? '1 pair' : '1 value on a side';
  return `only ${what} ${within}: at least 2 are needed for an interval`;
}

/**
 * Suite units that got no pair: unmeasured when the run ended on its budget (or settled the
 * others first), errors when it failed or was interrupted before reaching them — then the
 * cause is the failure, not the budget.
 */
export function unreachedUnits(
  samples: SamplesFile,
  baseIndex: number,
  baseline: string,
): BenchmarkResult[] {
  const suite = samples.suite;
  if (suite === undefined) return [];
  const broken = samples.stopReason === 'failed' || samples.stopReason === 'interrupted';
  const reason = notReached(budgetText(samples.scenario.budget), true);
  const cause = `not measured: the run ${samples.stopReason === 'failed' ? 'failed' : 'was interrupted'} before it was reached${samples.error === null ? '' : ` (${samples.error})`}`;
  return suite.units
    .filter((u) => u.pairs === 0)
    .flatMap((u) =>
      samples.versions.flatMap((version, i) =>
        i === baseIndex
          ? []
          : [
              uncompared(
                u.name,
                baseline,
                version.name,
                broken ? { error: cause } : { unmeasured: reason },
              ),
            ],
      ),
    );
}

function budgetText(budget: number | undefined): string {
  return budget === undefined ? 'within the budget' : `within the budget (${budget} s)`;
}

function notReached(within: string, paired: boolean): string {
  return `not measured ${within}: 0 ${paired ? 'pairs' : 'values on a side'}; the budget ran out before it was reached`;
}
