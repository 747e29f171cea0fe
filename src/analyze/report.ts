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
 */
export const COMPARISON_REPORT_SCHEMA_VERSION = 2;

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
  /** Null when the data could not be compared; `notComparable` or `error` says why. */
  comparison: Comparison | null;
  /**
   * The values were measured but form no relative change (e.g. a base of 0): reported with
   * the reason, never judged, and no error. Exactly one of comparison, notComparable and
   * error is set.
   */
  notComparable: NotComparable | null;
  /** The benchmark failed, was not run or has too few values: an error, never a pass. */
  error: string | null;
  /**
   * A metric computed from another of the same benchmark (go's MB/s from ns/op): its
   * name. Reported, but outside the multiple-comparison family: it takes that metric's p.
   */
  derivedFrom?: string;
  /** For an inconclusive result: what would settle it, in machine time (settle.ts). */
  settle?: Settle;
}

/** What became of one result. */
export type ResultStatus = 'compared' | 'not-comparable' | 'error';

/** A result's status; one without a comparison or a `notComparable` (as in v1) is an error. */
export function statusOf(result: BenchmarkResult): ResultStatus {
  if (result.comparison !== null) return 'compared';
  // `!= null`: comparison.json of schema version 1 has no such field
  return result.notComparable != null ? 'not-comparable' : 'error';
}

/** Results per verdict, plus those not comparable and the errors. */
export type ReportSummary = Record<Verdict | 'notComparable' | 'error', number>;

/** How many results have a verdict: only they decide the run's verdict and its gate. */
export function comparedCount(summary: ReportSummary): number {
  return summary.regression + summary.improvement + summary.unchanged + summary.inconclusive;
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
