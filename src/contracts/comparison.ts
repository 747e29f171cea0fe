import type {
  Adjustment,
  Comparison,
  IntervalMethod,
  NotComparable,
  Statistic,
  Verdict,
} from '../stats/types.js';
import type { ClusterRecord } from './cluster-record.js';
import type { Efficiency } from './efficiency.js';
import type { Explain } from './explain.js';
import type { IsolationReport } from './isolation.js';
import type { LoadSummary } from './load.js';
import type { MachineFingerprint } from './machine.js';
import type { SamplesFile, TimingRecord } from './samples.js';

/**
 * Version of the comparison report JSON (`comparison.json`). 2 added `notComparable` (per
 * result and in the summary): since then a result without a comparison is not always an error.
 * 3 added `unmeasured` (per result and in the summary: a benchmark the time budget did not
 * measure enough is no error) and `exact` (a metric constant on each side, e.g. allocs/op,
 * compared exactly and outside the multiple-comparison family). A v2 file has neither: read
 * a missing `unmeasured` as null (0 in the summary) and a missing `exact` as a statistical
 * comparison. 4 added `explain` (per result: the differential profile of base and head, issue
 * 23, contracts/explain.ts), absent when no profile was taken: a v3 file reads as v4 without
 * one.
 */
export const COMPARISON_REPORT_SCHEMA_VERSION = 4;

/** Analysis settings actually used (scenario values, overridden on the command line). */
export interface AnalysisSettings {
  level: number;
  statistic: Statistic | null;
  method: IntervalMethod;
  threshold: number;
  /**
   * Thresholds of their own (`analysis.thresholds`): by a benchmark's full name, or by kind of
   * metric (`time`, `memory`); `threshold` judges the rest. Absent when none were given.
   */
  thresholds?: Record<string, number>;
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
  /** For an inconclusive result: what would settle it, in machine time (analyze/settle.ts). */
  settle?: Settle;
  /**
   * Where the time went: the differential profile of base and head, for the results the
   * profiling policy chose (`changed`: the called ones). Absent before version 4 and when not
   * profiled.
   */
  explain?: Explain;
}

/** What became of one result. */
export type ResultStatus = 'compared' | 'not-comparable' | 'error' | 'unmeasured';

/**
 * Results per verdict, plus those not comparable, the errors and (from version 3) those the
 * budget did not measure; `unmeasured` is absent in older files.
 */
export type ReportSummary = Record<Verdict | 'notComparable' | 'error', number> & {
  unmeasured?: number;
};

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
  /** Measured time ÷ machine time, and where the rest went (analyze/efficiency.ts). */
  efficiency?: Efficiency;
}

/** What it would take to settle an inconclusive result, in time rather than pairs. */
export interface Settle {
  /** Further pairs (or values per side) the interval needs, by the 1/√n rule. */
  more: number | null;
  /** Those at this run's pace, s; null when no number would settle it. */
  seconds: number | null;
  /** This benchmark's measured pairs per second of machine time. */
  perSecond: number;
  /** One sentence for the user. */
  advice: string;
}
