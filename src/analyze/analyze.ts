import type { AnalysisSpec } from '../scenario/schema.js';
import type { SamplesFile } from '../runner/samples.js';
import { getMode } from '../runner/modes/registry.js';
import { compare } from '../stats/compare.js';
import { adjustFamily, withTest } from '../stats/family.js';
import { NotComparableError } from '../stats/ratio.js';
import type { Comparison } from '../stats/types.js';
import { comparisonInput } from './blocks.js';
import {
  COMPARISON_REPORT_SCHEMA_VERSION,
  type AnalysisSettings,
  type BenchmarkResult,
  type ComparisonReport,
  type ReportSummary,
} from './report.js';
import { collectSeries } from './series.js';
import { summarizeLoad } from '../load/summary.js';
import { efficiencyOf } from './efficiency.js';
import { assessLook, asSequential, truncateToLook, unitLooks } from './sequential.js';
import { belongsTo } from '../suite/record.js';
import { lookLevel, lookSchedule as lookScheduleOf } from '../stats/sequential.js';
import { paceByMetric, settleAdvice } from './settle.js';

/** Settings that may be changed when re-analysing (`duetkit analyze --level ...`). */
export type AnalysisOverrides = Partial<Omit<AnalysisSettings, 'baseline'>> & { baseline?: string };

/**
 * Samples → comparisons: every benchmark of every version against the baseline, paired by
 * round for duet and RMIT, unpaired for the weaker designs; then the whole run is one family
 * for the multiple-comparison adjustment. A benchmark whose values form no ratio (a base of
 * 0...) is `notComparable`, one that cannot be compared for any other reason (too few values,
 * not run) an `error`. Pure apart from the seeded bootstrap.
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
        ...(series.derivedFrom === undefined ? {} : { derivedFrom: series.derivedFrom }),
      };
      try {
        const whole = comparisonInput(series, baseIndex, headIndex, paired);
        const input = look === undefined ? whole : truncateToLook(whole, look.pairs);
        entry.comparison = compare(input.base, input.head, {
          paired,
          level: look?.lookLevel ?? settings.level,
          resamples: settings.resamples,
          seed: settings.seed,
          method: settings.method,
          threshold: settings.threshold,
          biggerIsBetter: series.biggerIsBetter,
          blockLength: settings.blockLength,
          ...(settings.statistic === null ? {} : { statistic: settings.statistic }),
        });
        if (look !== undefined && samples.suite !== undefined) {
          entry.comparison = asSequential(
            entry.comparison,
            look,
            settings.level,
            samples.suite.schedule,
          );
        }
      } catch (error) {
        if (error instanceof NotComparableError) entry.notComparable = error.notComparable;
        else entry.error = explain(error as Error, samples.mode);
      }
      results.push(entry);
    });
  }
  results.push(...unlisted(samples, baseIndex, settings.baseline));
  results.push(...unmeasured(samples, baseIndex, settings.baseline));
  adjust(results, settings);
  addSettleAdvice(results, samples);
  const summary: ReportSummary = {
    regression: 0,
    improvement: 0,
    unchanged: 0,
    inconclusive: 0,
    notComparable: 0,
    error: 0,
  };
  for (const r of results) {
    summary[r.comparison?.verdict ?? (r.notComparable === null ? 'error' : 'notComparable')]++;
  }
  const load = summarizeLoad(samples);
  return {
    schemaVersion: COMPARISON_REPORT_SCHEMA_VERSION,
    scenario: samples.scenario.name,
    mode: samples.mode,
    paired,
    complete: samples.complete,
    stopReason: samples.stopReason,
    isolation: samples.isolation,
    ...(samples.machine.fingerprint === undefined
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
  const kept = new Set(rounds.slice(0, pairs));
  const level = samples.scenario.analysis.level;
  const weights =
    schedule === undefined
      ? null
      : lookScheduleOf(schedule.firstLook, schedule.growth, schedule.looks);
  const report = analyzeSamples(
    {
      ...samples,
      trials: mine.filter((t) => kept.has(t.round)),
      perBenchmark: undefined,
      suite: undefined,
    },
    {
      adjustment: 'none',
      resamples: 2000,
      level: weights === null ? level : lookLevel(level, weights, look),
    },
  );
  return assessLook(
    report.results,
    weights === null
      ? undefined
      : { size: familySize, weight: weights.weights[look]!, alpha: 1 - level },
  );
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
  if (report.results.some((r) => r.error !== null)) return null;
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
 */
function adjust(results: BenchmarkResult[], settings: AnalysisSettings): void {
  const compared = results.filter((r) => r.comparison !== null);
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

/** Benchmarks of a suite that the budget ended before they got a single pair: errors. */
function unmeasured(samples: SamplesFile, baseIndex: number, baseline: string): BenchmarkResult[] {
  const suite = samples.suite;
  if (suite === undefined) return [];
  return suite.units
    .filter((u) => u.pairs === 0)
    .flatMap((u) =>
      samples.versions.flatMap((version, i) =>
        i === baseIndex
          ? []
          : [
              {
                benchmark: u.name,
                unit: '',
                biggerIsBetter: false,
                valueKind: null,
                baseline,
                version: version.name,
                comparison: null,
                notComparable: null,
                error: `not measured: the budget (${samples.scenario.budget} s) ran out before its first look (${suite.schedule.pairs[0]} pairs); a longer budget, fewer benchmarks (workload.benchmarks) or a smaller suite.firstLook would reach it`,
              },
            ],
      ),
    );
}

/** Benchmarks a per-benchmark run never ran because some version does not list them. */
function unlisted(samples: SamplesFile, baseIndex: number, baseline: string): BenchmarkResult[] {
  const results: BenchmarkResult[] = [];
  for (const { benchmark, versions: lacking } of samples.perBenchmark?.missing ?? []) {
    samples.versions.forEach((version, i) => {
      if (i === baseIndex) return;
      results.push({
        benchmark,
        unit: '',
        biggerIsBetter: false,
        valueKind: null,
        baseline,
        version: version.name,
        comparison: null,
        notComparable: null,
        error: `not run: ${lacking.join(' and ')} ${lacking.length === 1 ? 'does' : 'do'} not list it (added or removed by the change?), so it cannot be compared`,
      });
    });
  }
  return results;
}

function explain(error: Error, mode: SamplesFile['mode']): string {
  if (/at least 2 values/.test(error.message) && (mode === 'single' || mode === 'mct')) {
    return `${error.message} (in ${mode} mode each version needs at least two values: more iterations, or a format whose output has several samples)`;
  }
  return error.message;
}
