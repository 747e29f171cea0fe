import type { AnalysisSpec } from '../scenario/schema.js';
import type { SamplesFile } from '../contracts/samples.js';
import { getMode } from '../runner/modes/registry.js';
import { compare } from '../stats/compare.js';
import { exactComparison } from '../stats/exact.js';
import { adjustFamily, withTest } from '../stats/family.js';
import { NotComparableError } from '../stats/ratio.js';
import type { Comparison } from '../stats/types.js';
import { comparisonInput } from './blocks.js';
import { exactSides } from './exact-rule.js';
import { pairsPerRound } from './round-pairs.js';
import {
  COMPARISON_REPORT_SCHEMA_VERSION,
  type AnalysisSettings,
  type BenchmarkResult,
  type ComparisonReport,
} from '../contracts/comparison.js';
import { summarize, uncompared } from './report.js';
import { collectSeries } from './series.js';
import { summarizeLoad } from '../load/summary.js';
import { efficiencyOf } from './efficiency.js';
import { assessLook, asSequential, truncateToLook, unitLooks } from './sequential.js';
import { belongsTo } from '../contracts/suite-record.js';
import {
  lookLevel,
  lookSchedule as lookScheduleOf,
  type LookSchedule,
} from '../stats/sequential.js';
import { paceByMetric, settleAdvice } from './settle.js';
import { thresholdFor } from './thresholds.js';
import { budgetStopped, shortOfValues, unreachedUnits } from './unmeasured.js';

/** Settings that may be changed when re-analysing (`duetkit analyze --level ...`). */
export type AnalysisOverrides = Partial<Omit<AnalysisSettings, 'baseline'>> & {
  baseline?: string;
  /** Judge each benchmark on its first this-many pairs only (a suite's look). */
  maxPairs?: number;
};

/**
 * Samples → comparisons: every benchmark of every version against the baseline, paired by
 * round for duet and RMIT, unpaired for the weaker designs; then the whole run is one family
 * for the multiple-comparison adjustment. A metric constant on each side (allocs/op) is
 * compared exactly, outside the family (`exact`). A benchmark whose values form no ratio (a
 * base of 0...) is `notComparable`; one the time budget left with fewer than 2 pairs is
 * `unmeasured`; one that cannot be compared for any other reason (too few values in a run
 * the budget did not stop, not run) an `error`. Pure apart from the seeded bootstrap.
 */
export function analyzeSamples(
  samples: SamplesFile,
  overrides: AnalysisOverrides = {},
): ComparisonReport {
  const settings = resolveSettings(samples, overrides);
  const paired = getMode(samples.mode).paired;
  const baseIndex = samples.versions.findIndex((v) => v.name === settings.baseline);
  if (baseIndex < 0) {
    const names = samples.versions.map((v) => v.name).join(', ');
    throw new RangeError(
      `baseline "${settings.baseline}" is not a version of this run; accepted: ${names}`,
    );
  }
  const results: BenchmarkResult[] = [];
  const looks = unitLooks(samples, settings.level);
  const cutShort = budgetStopped(samples);
  for (const series of collectSeries(samples)) {
    const look = looks.get(series.name);
    samples.versions.forEach((version, headIndex) => {
      if (headIndex === baseIndex) return;
      const entry: BenchmarkResult = {
        benchmark: series.name,
        unit: series.unit,
        biggerIsBetter: series.biggerIsBetter,
        valueKind: series.valueKind,
        baseline: settings.baseline,
        version: version.name,
        comparison: null,
        notComparable: null,
        error: null,
        unmeasured: null,
        ...(series.derivedFrom === undefined ? {} : { derivedFrom: series.derivedFrom }),
      };
      try {
        const whole = comparisonInput(series, baseIndex, headIndex, paired);
        const limit = look?.pairs ?? overrides.maxPairs;
        const input = limit === undefined ? whole : truncateToLook(whole, limit);
        const options = {
          paired,
          level: look?.lookLevel ?? settings.level,
          resamples: settings.resamples,
          seed: settings.seed,
          method: settings.method,
          threshold: thresholdFor(
            series.name,
            series.unit,
            settings.threshold,
            settings.thresholds,
          ),
          biggerIsBetter: series.biggerIsBetter,
          blockLength: settings.blockLength,
          ...(settings.statistic === null ? {} : { statistic: settings.statistic }),
          // a suite's calls must be reachable at its looks' sizes (docs/suites.md)
          ...(samples.scenario.suite === undefined ? {} : { test: 'trimmed-t' as const }),
        };
        const exact = exactSides(input, series.unit);
        const short = cutShort(series.name) ? shortOfValues(input, samples.scenario.budget) : null;
        if (exact !== null) {
          entry.exact = { base: exact.base, head: exact.head };
          // no sampling error, so no look's share of it to spend: the run's own level
          entry.comparison = exactComparison(
            input.base.map(() => exact.base),
            input.head.map(() => exact.head),
            { ...options, level: settings.level },
          );
          if (exact.varying === true) {
            entry.comparison.notes.push(
              `the count varied between repetitions (base ${range(input.base)}, head ${range(input.head)}): compared as the median of each side`,
            );
          }
        } else if (short !== null) {
          entry.unmeasured = short;
        } else {
          entry.comparison = compare(input.base, input.head, options);
          if (look !== undefined && samples.suite !== undefined) {
            entry.comparison = asSequential(
              entry.comparison,
              look,
              settings.level,
              samples.suite.schedule,
            );
          }
        }
      } catch (error) {
        if (error instanceof NotComparableError) entry.notComparable = error.notComparable;
        else entry.error = explain(error as Error, samples.mode);
      }
      results.push(entry);
    });
  }
  results.push(...unlisted(samples, baseIndex, settings.baseline));
  results.push(...unreachedUnits(samples, baseIndex, settings.baseline));
  adjust(results, settings);
  addSettleAdvice(results, samples);
  const summary = summarize(results);
  const load = summarizeLoad(samples);
  return {
    schemaVersion: COMPARISON_REPORT_SCHEMA_VERSION,
    scenario: samples.scenario.name,
    mode: samples.mode,
    paired,
    complete: samples.complete,
    stopReason: samples.stopReason,
    isolation: samples.isolation,
    // `?.`: samples made from bare values (compare-samples) have no machine
    ...(samples.machine?.fingerprint === undefined
      ? {}
      : { fingerprint: samples.machine.fingerprint }),
    ...(samples.timing === undefined ? {} : { timing: samples.timing }),
    ...(samples.cluster === undefined ? {} : { cluster: samples.cluster }),
    settings,
    results,
    summary,
    ...(load === undefined ? {} : { load }),
    ...(samples.trials.length === 0 ? {} : { efficiency: efficiencyOf(samples) }),
  };
}

/** Inconclusive results get what would settle them, in machine time (settle.ts). */
function addSettleAdvice(results: BenchmarkResult[], samples: SamplesFile): void {
  const pace = paceByMetric(samples);
  for (const r of results) {
    const c = r.comparison;
    if (c === null || c.verdict !== 'inconclusive') continue;
    const p = pace.get(r.benchmark);
    if (p === undefined) continue;
    r.settle = settleAdvice(c, p.perSecond, {
      isolation: samples.isolation.kind,
      medianIterationMs: p.medianMs,
    });
  }
}

/**
 * One look of a suite unit, for the allocation: its first `pairs` pairs analysed at the
 * look's own level, unadjusted (the family is adjusted once, at the end), then `assessLook`.
 */
export function assessSuiteLook(
  samples: SamplesFile,
  unit: string,
  pairs: number,
  look: number,
  familySize = 1,
  /** The suite's planned schedule (its first look may be raised above the scenario's). */
  planned?: LookSchedule,
  /** Fewest pairs at which a look calls a change (MIN_PAIRS_TO_CALL); 0: no floor. */
  callFloor = 0,
): ReturnType<typeof assessLook> {
  const schedule = samples.scenario.suite;
  // the unit's own trials, or its metrics of trials that ran a group of units
  const mine = samples.trials.flatMap((t) => {
    if (t.benchmark !== undefined) return t.benchmark === unit ? [t] : [];
    const metrics = t.metrics.filter((m) => belongsTo(m.name, unit));
    return metrics.length === 0 ? [] : [{ ...t, metrics }];
  });
  const rounds = [...new Set(mine.filter((t) => !t.warmup).map((t) => t.round))].sort(
    (a, b) => a - b,
  );
  // a round holds one pair, or as many as its positional repetitions: keep enough rounds
  const kept = new Set<number>();
  const perRound = pairsPerRound(mine);
  let reached = 0;
  for (const round of rounds) {
    if (reached >= pairs) break;
    kept.add(round);
    reached += perRound.get(round) ?? 1;
  }
  const level = samples.scenario.analysis.level;
  const weights =
    planned ??
    (schedule === undefined
      ? null
      : lookScheduleOf(schedule.firstLook, schedule.growth, schedule.looks));
  const report = analyzeSamples(
    {
      ...samples,
      trials: mine.filter((t) => kept.has(t.round)),
      perBenchmark: undefined,
      suite: undefined,
      // a look judges the pairs it has: too few is an error to assessLook, budget or not
      stopReason: 'iterations',
    },
    {
      adjustment: 'none',
      resamples: 2000,
      level: weights === null ? level : lookLevel(level, weights, look),
      maxPairs: pairs,
    },
  );
  return assessLook(
    report.results,
    weights === null
      ? undefined
      : { size: familySize, weight: weights.weights[look]!, alpha: 1 - level },
    callFloor,
  );
}

function range(values: readonly number[]): string {
  return `${Math.min(...values)}–${Math.max(...values)}`;
}

/**
 * Largest CI half-width (relative change) over all comparisons of the trials so far, for
 * precision-based stopping; null until every benchmark can be compared. Benchmarks that are
 * not comparable (a base of 0...) have no interval to narrow and do not hold it up.
 */
export function largestHalfWidth(
  samples: SamplesFile,
  overrides: AnalysisOverrides = {},
): number | null {
  const report = analyzeSamples(samples, overrides);
  if (report.results.some((r) => r.error !== null || r.unmeasured != null)) return null;
  const widths = report.results.flatMap((r) =>
    r.comparison === null ? [] : [(r.comparison.ci.upper - r.comparison.ci.lower) / 2],
  );
  return widths.length === 0 ? null : Math.max(...widths);
}

function resolveSettings(samples: SamplesFile, overrides: AnalysisOverrides): AnalysisSettings {
  const spec: AnalysisSpec = samples.scenario.analysis;
  return {
    level: overrides.level ?? spec.level,
    statistic: overrides.statistic ?? spec.statistic ?? null,
    method: overrides.method ?? spec.method,
    threshold: overrides.threshold ?? spec.threshold,
    ...thresholdsOf(spec.thresholds, overrides.thresholds),
    resamples: overrides.resamples ?? spec.resamples,
    adjustment: overrides.adjustment ?? spec.adjustment,
    blockLength: overrides.blockLength ?? spec.blockLength,
    seed: overrides.seed ?? samples.seed,
    baseline: overrides.baseline ?? spec.baseline ?? samples.versions[0]!.name,
  };
}

/**
 * One family per run: every compared benchmark once. A derived metric (go's MB/s of ns/op)
 * is the same measurement again, so it is left out and takes the adjusted p-value of the
 * metric it derives from (or its own, adjusted as one more test, when that one is missing).
 * Exact results (allocs/op...) are no test at all: never members, so they cost the timings
 * nothing.
 */
function adjust(results: BenchmarkResult[], settings: AnalysisSettings): void {
  const compared = results.filter((r) => r.comparison !== null && r.exact === undefined);
  if (compared.length === 0) return;
  const source = (r: BenchmarkResult): BenchmarkResult | undefined =>
    r.derivedFrom === undefined
      ? undefined
      : compared.find((s) => s.benchmark === r.derivedFrom && s.version === r.version);
  const family = compared.filter((r) => source(r) === undefined);
  const adjusted: Comparison[] = adjustFamily(
    family.map((r) => r.comparison!),
    settings.adjustment,
  );
  family.forEach((r, i) => (r.comparison = adjusted[i]!));
  for (const r of compared.filter((x) => source(x) !== undefined)) {
    const from = source(r)!.comparison!;
    r.comparison = withAdjustedP(r.comparison!, from.test.pValueAdjusted, settings.adjustment);
  }
}

function withAdjustedP(
  c: Comparison,
  p: number,
  adjustment: Comparison['test']['adjustment'],
): Comparison {
  return withTest(c, { ...c.test, pValueAdjusted: Math.max(p, c.test.pValue), adjustment });
}

/** Benchmarks a per-benchmark run never ran because some version does not list them. */
function unlisted(samples: SamplesFile, baseIndex: number, baseline: string): BenchmarkResult[] {
  const results: BenchmarkResult[] = [];
  for (const { benchmark, versions: lacking } of samples.perBenchmark?.missing ?? []) {
    samples.versions.forEach((version, i) => {
      if (i === baseIndex) return;
      results.push(
        uncompared(benchmark, baseline, version.name, {
          error: `not run: ${lacking.join(' and ')} ${lacking.length === 1 ? 'does' : 'do'} not list it (added or removed by the change?), so it cannot be compared`,
        }),
      );
    });
  }
  return results;
}

/** The per-metric thresholds, the command line's over the scenario's; absent when none. */
function thresholdsOf(
  spec: Record<string, number> | undefined,
  override: Record<string, number> | undefined,
): { thresholds?: Record<string, number> } {
  const merged = { ...spec, ...override };
  return Object.keys(merged).length === 0 ? {} : { thresholds: merged };
}

function explain(error: Error, mode: SamplesFile['mode']): string {
  if (/at least 2 values/.test(error.message) && (mode === 'single' || mode === 'mct')) {
    return `${error.message} (in ${mode} mode each version needs at least two values: more iterations, or a format whose output has several samples)`;
  }
  return error.message;
}
