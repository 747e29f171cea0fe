import type { IsolationReport } from '../isolation/types.js';
import type { SamplesFile, TimingRecord } from '../runner/samples.js';
import type { Adjustment, Comparison, IntervalMethod, Statistic } from '../stats/types.js';

/** Version of the comparison report JSON (`comparison.json`). */
export const COMPARISON_REPORT_SCHEMA_VERSION = 1;

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
  /** Null when the data could not be compared; `error` says why. */
  comparison: Comparison | null;
  error: string | null;
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
  /** How command iterations were timed (absent for other drivers and older samples). */
  timing?: TimingRecord;
  settings: AnalysisSettings;
  results: BenchmarkResult[];
  summary: Record<'regression' | 'improvement' | 'unchanged' | 'inconclusive' | 'error', number>;
}
