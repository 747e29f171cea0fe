import { createHash } from 'node:crypto';
import type { BenchmarkResult, ComparisonReport } from '../contracts/comparison.js';
import { collectSeries, type BenchmarkSeries } from '../analyze/series.js';
import { getMode } from '../runner/modes/registry.js';
import type { SamplesFile } from '../contracts/samples.js';
import { coefficientOfVariation, median } from '../stats/descriptive.js';
import { locationInterval, type LocationStatistic } from '../stats/location-interval.js';
import type { Statistic } from '../stats/types.js';
import type { RunContext } from './context.js';
import {
  HISTORY_SCHEMA_VERSION,
  type EntryBenchmark,
  type EntryCommit,
  type HistoryEntry,
} from './schema.js';

export interface EntryInput {
  samples: SamplesFile;
  report: ComparisonReport;
  suite: string;
  runId: string;
  context: RunContext;
  /** The head's commit as git has it (null outside a git repository). */
  commit: EntryCommit | null;
  /** When the entry is written (ISO). */
  recordedAt: string;
}

/**
 * A run's history entry: for the head version (the last version that is not the baseline),
 * every benchmark's statistic with its interval, n and CV, and its comparison against the
 * baseline when there is one. A benchmark that failed is recorded with its error, never
 * dropped; one the budget did not measure enough with why, and no value. Pure.
 */
export function buildEntry(input: EntryInput): HistoryEntry {
  const { samples, report, context } = input;
  const baseline = report.settings.baseline;
  const headIndex = headVersionIndex(samples, baseline);
  const head = samples.versions[headIndex]!;
  const base = samples.versions.find((v) => v.name === baseline) ?? null;
  const paired = getMode(samples.mode).paired;
  const series = new Map(collectSeries(samples).map((s) => [s.name, s]));
  const results = report.results.filter((r) => r.version === head.name);
  const m = samples.machine;
  return {
    schemaVersion: HISTORY_SCHEMA_VERSION,
    suite: input.suite,
    runId: input.runId,
    recordedAt: input.recordedAt,
    run: {
      startedAt: new Date(Date.parse(samples.startedAt)).toISOString(),
      finishedAt: new Date(Date.parse(samples.finishedAt)).toISOString(),
      event: context.event,
      workflow: context.workflow,
      githubRunId: context.githubRunId,
      runAttempt: context.runAttempt,
      url: context.url,
      ref: context.ref,
      runner:
        context.runner ?? `${m.cpuModel}, ${m.cores} CPUs, ${m.platform} ${m.kernel} ${m.arch}`,
      mode: samples.mode,
      scenarioHash: scenarioHash(samples.scenario),
      seed: samples.seed,
      complete: samples.complete,
      level: report.settings.level,
      threshold: report.settings.threshold,
    },
    infrastructure: {
      runnerImage: context.runnerImage,
      runnerImageVersion: context.runnerImageVersion,
      os: `${m.platform} ${m.kernel} ${m.arch}`,
      cpuModel: m.cpuModel,
      machine: { ...m },
      isolation: { ...samples.isolation },
    },
    commit: input.commit,
    version: head.name,
    benchmarks: results.map((r) =>
      benchmarkOf(r, series.get(r.benchmark), headIndex, paired, report, base?.commit ?? null),
    ),
  };
}

/** The version whose values the history records: the last one that is not the baseline. */
export function headVersionIndex(samples: Pick<SamplesFile, 'versions'>, baseline: string): number {
  for (let i = samples.versions.length - 1; i >= 0; i--) {
    if (samples.versions[i]!.name !== baseline) return i;
  }
  return samples.versions.length - 1;
}

function benchmarkOf(
  r: BenchmarkResult,
  series: BenchmarkSeries | undefined,
  headIndex: number,
  paired: boolean,
  report: ComparisonReport,
  baseCommit: string | null,
): EntryBenchmark {
  const c = r.comparison;
  const compared: Statistic = c?.statistic ?? report.settings.statistic ?? 'median';
  // The head's own location: a trimmed mean is a statistic of pair ratios, and reports show
  // each side's median beside it (centreOf), so the history keeps the median too.
  const statistic: LocationStatistic = compared === 'trimmed' ? 'median' : compared;
  // a benchmark the budget did not measure enough has no value to record, and no error
  const unmeasured = r.unmeasured ?? null;
  const values =
    series === undefined || unmeasured !== null ? [] : headValues(series, headIndex, paired);
  const estimate =
    values.length === 0 ? null : locationInterval(values, statistic, report.settings.level);
  return {
    name: r.benchmark,
    unit: r.unit,
    biggerIsBetter: r.biggerIsBetter,
    valueKind: r.valueKind ?? null,
    statistic: estimate?.statistic ?? statistic,
    value: estimate?.value ?? null,
    ci: estimate?.interval ?? null,
    n: values.length,
    cv: values.length < 2 ? null : coefficientOfVariation(values),
    comparison:
      c === null
        ? null
        : {
            baseline: r.baseline,
            baseCommit,
            baseValue: centre(c.base, c.statistic),
            change: c.change,
            ci: { level: c.ci.level, lower: c.ci.lower, upper: c.ci.upper, method: c.ci.method },
            pValueAdjusted: c.test.pValueAdjusted,
            verdict: c.verdict,
            threshold: c.threshold,
          },
    ...(r.notComparable == null ? {} : { notComparable: r.notComparable.reason }),
    ...(unmeasured === null ? {} : { unmeasured }),
    error:
      r.error ??
      (values.length === 0 && unmeasured === null ? 'no values were measured for the head' : null),
  };
}

function centre(
  side: { median: number; mean: number; gmean: number | null },
  statistic: Statistic,
): number {
  if (statistic === 'mean') return side.mean;
  if (statistic === 'gmean') return side.gmean ?? side.median;
  return side.median;
}

/** The head's values as the comparison used them: one per round when paired, else all. */
function headValues(series: BenchmarkSeries, headIndex: number, paired: boolean): number[] {
  const rounds = series.byVersion[headIndex];
  if (rounds === undefined) return [];
  if (!paired) return [...rounds.values()].flat();
  return [...rounds.entries()]
    .sort(([a], [b]) => a - b)
    .filter(([, v]) => v.length > 0)
    .map(([, v]) => median(v));
}

/** sha256 of the scenario as canonical JSON (keys sorted), to tell runs of different setups. */
export function scenarioHash(scenario: unknown): string {
  return createHash('sha256').update(canonicalJson(scenario)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
