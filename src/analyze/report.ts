import type { ClusterRecord } from '../cluster/record.js';
import type { IsolationReport } from '../isolation/types.js';
import type { MachineFingerprint } from '../runner/fingerprint.js';
import type { Efficiency } from './efficiency.js';
import type { Settle } from './settle.js';
import type { SamplesFile, TimingRecord } from '../runner/samples.js';
import type { LoadSummary } from '../load/summary.js';
import type {
  Adjustment,
  Comparison,
  IntervalMethod,
  NotComparable,
  Statistic,
  Verdict,
} from '../stats/types.js';

/**
 * Version of the comparison report JSON (`comparison.json`). 2 added `notComparable` (per
 * result and in the summary): since then a result without a comparison is not always an error.
 * 3 added `unmeasured` (per result and in the summary: a benchmark the time budget did not
 * measure enough is no error) and `exact` (a metric constant on each side, e.g. allocs/op,
 * compared exactly and outside the multiple-comparison family). A v2 file has neither: read
 * a missing `unmeasured` as null (0 in the summary) and a missing `exact` as a statistical
 * comparison.
 */
export const COMPARISON_REPORT_SCHEMA_VERSION = 3;

/** Analysis settings actually used (scenario values, overridden on the command line). */
export interface AnalysisSettings {
  level: number;
  statistic: Statistic | null;
  method: IntervalMethod;
  threshold: number;
  resamples: number;
  adjustment: Adjustment;
  blockLength: number | 'auto';
  seed: number;
  baseline: string;
}

/** One benchmark of one version against the baseline. */
export interface BenchmarkResult {
  benchmark: string;
  unit: string;
  biggerIsBetter: boolean;
  /**
   * `samples`: the tool reported every measurement (paired designs use each trial's median,
   * unpaired ones every value); `summary`: one value per run. Null when not recorded.
   */
  valueKind: 'samples' | 'summary' | null;
  baseline: string;
  version: string;
  /** Null when the data could not be compared; `notComparable`, `error` or `unmeasured` says why. */
  comparison: Comparison | null;
  /**
   * The values were measured but form no relative change (e.g. a base of 0): reported with
   * the reason, never judged, and no error. Exactly one of comparison, notComparable, error
   * and unmeasured is set.
   */
  notComparable: NotComparable | null;
  /** The benchmark failed, was not run or has too few values: an error, never a pass. */
  error: string | null;
  /**
   * Why the time budget left it without enough values to compare (0 pairs, or 1 where an
   * interval needs 2): not an error — the run stopped where it was told to — and no verdict.
   * `fail-on: inconclusive` fails on it, `regression` does not. Absent before version 3.
   */
  unmeasured?: string | null;
  /**
   * Set when every base value and every head value was one constant (allocs/op, a byte
   * count): `comparison` is then exact (stats/exact.ts), outside the family. Reports list it
   * only when base and head differ; comparison.json keeps it either way.
   */
  exact?: { base: number; head: number };
  /**
   * A metric computed from another of the same benchmark (go's MB/s from ns/op): its
   * name. Reported, but outside the multiple-comparison family: it takes that metric's p.
   */
  derivedFrom?: string;
  /** For an inconclusive result: what would settle it, in machine time (settle.ts). */
  settle?: Settle;
}

/**
 * The result of a benchmark with nothing to compare (never run, or not reached): why, in
 * exactly one of `error` and `unmeasured`.
 */
export function uncompared(
  benchmark: string,
  baseline: string,
  version: string,
  why: { error: string; unmeasured?: null } | { error?: null; unmeasured: string },
): BenchmarkResult {
  return {
    benchmark,
    unit: '',
    biggerIsBetter: false,
    valueKind: null,
    baseline,
    version,
    comparison: null,
    notComparable: null,
    error: why.error ?? null,
    unmeasured: why.unmeasured ?? null,
  };
}

/** What became of one result. */
export type ResultStatus = 'compared' | 'not-comparable' | 'error' | 'unmeasured';

/** A result's status; one without a comparison, `notComparable` or `unmeasured` is an error. */
export function statusOf(result: BenchmarkResult): ResultStatus {
  if (result.comparison !== null) return 'compared';
  // `!= null`: comparison.json of schema version 1 has no `notComparable`, 2 no `unmeasured`
  if (result.notComparable != null) return 'not-comparable';
  return result.unmeasured != null ? 'unmeasured' : 'error';
}

/**
 * An exact result whose base equals its head (e.g. the same allocs/op): no test and nothing
 * to show, so reports leave it out and the summary does not count it.
 */
export function isExactTie(result: BenchmarkResult): boolean {
  return result.exact !== undefined && result.exact.base === result.exact.head;
}

/**
 * Results per verdict, plus those not comparable, the errors and (from version 3) those the
 * budget did not measure; `unmeasured` is absent in older files.
 */
export type ReportSummary = Record<Verdict | 'notComparable' | 'error', number> & {
  unmeasured?: number;
};

/** How many results have a verdict: only they decide the run's verdict and its gate. */
export function comparedCount(summary: ReportSummary): number {
  return summary.regression + summary.improvement + summary.unchanged + summary.inconclusive;
}

/** Results the budget did not measure (0 for a file older than version 3). */
export function unmeasuredCount(summary: ReportSummary): number {
  return summary.unmeasured ?? 0;
}

/**
 * Counts the results by status and verdict. Exact ties are no test and are not counted,
 * unless nothing else has a verdict, failed or went unmeasured (every metric constant and
 * equal): then they are the verdict, unchanged, rather than a run with nothing judged.
 */
export function summarize(results: readonly BenchmarkResult[]): ReportSummary {
  const summary = {
    regression: 0,
    improvement: 0,
    unchanged: 0,
    inconclusive: 0,
    notComparable: 0,
    error: 0,
    unmeasured: 0,
  };
  const ties = results.filter(isExactTie).length;
  for (const r of results) {
    if (isExactTie(r)) continue;
    const status = statusOf(r);
    if (status === 'compared') summary[r.comparison!.verdict]++;
    else if (status === 'not-comparable') summary.notComparable++;
    else summary[status]++;
  }
  const nothingElse = comparedCount(summary) + summary.error + summary.unmeasured === 0;
  if (nothingElse) summary.unchanged += ties;
  return summary;
}

/** What `duetkit analyze` (and `run`) writes: every comparison plus how it was obtained. */
export interface ComparisonReport {
  schemaVersion: typeof COMPARISON_REPORT_SCHEMA_VERSION;
  scenario: string;
  mode: SamplesFile['mode'];
  paired: boolean;
  /** False when the samples came from an interrupted or failed run. */
  complete: boolean;
  stopReason: SamplesFile['stopReason'];
  isolation: IsolationReport;
  /** The machine's fingerprint from the samples (absent in older ones). */
  fingerprint?: MachineFingerprint;
  /** How command iterations were timed (absent for other drivers and older samples). */
  timing?: TimingRecord;
  /** Where a cluster run ran (node, instance, exclusive CPUs) and what it cost. */
  cluster?: ClusterRecord;
  settings: AnalysisSettings;
  results: BenchmarkResult[];
  summary: ReportSummary;
  /** http driver: the load offered, errors by kind, invalid iterations, where the generator ran. */
  load?: LoadSummary;
  /** Measured time ÷ machine time, and where the rest went (efficiency.ts). */
  efficiency?: Efficiency;
}
