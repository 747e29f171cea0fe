/** Version of the Comparison JSON; bump on any incompatible change. */
export const COMPARISON_SCHEMA_VERSION = 1;

/**
 * `trimmed` (paired only): the 20% trimmed mean of the log pair ratios with its
 * Tukey–McLaughlin interval, the default of paired comparisons (BENCHMARKS.md, "Intervals").
 */
export const STATISTICS = ['median', 'mean', 'gmean', 'trimmed'] as const;
export type Statistic = (typeof STATISTICS)[number];
export type IntervalMethod = 'percentile' | 'bca';
export type Adjustment = 'holm' | 'bh' | 'none';
export type Verdict = 'regression' | 'improvement' | 'unchanged' | 'inconclusive';

/** Options of `compare`; every field has a documented default. */
export interface CompareOptions {
  /** Pairs (duet iterations, RMIT rounds) instead of two independent samples. Default false. */
  paired?: boolean;
  /** Confidence level of the interval, in (0, 1). Default 0.99. */
  level?: number;
  /** Bootstrap resamples. Default 10,000. */
  resamples?: number;
  /** PRNG seed (recorded in the result). Default: drawn at random. */
  seed?: number;
  /**
   * Unpaired: ratio of this statistic of head to that of base (default median).
   * Paired: `trimmed` (default: 20% trimmed mean of the log pair ratios), `median` or `gmean`
   * of the pair ratios, or `mean` = ratio of pair means.
   */
  statistic?: Statistic;
  /** Interval method. Default `bca`. */
  method?: IntervalMethod;
  /** Practical threshold as a fraction (0.05 = 5%). Default 0.05. */
  threshold?: number;
  /** Whether a larger value is better for this metric. Default false (times). */
  biggerIsBetter?: boolean;
  /**
   * Paired only: moving-block length for autocorrelated pairs. `auto` (default) chooses it
   * from the data (Politis & White 2004); 1 resamples pairs independently.
   */
  blockLength?: number | 'auto';
  /** Power used for the minimum detectable effect. Default 0.8. */
  power?: number;
  /**
   * Paired trimmed mean only: `rank` (default) tests with the Wilcoxon signed-rank test;
   * `trimmed-t` with the Tukey–McLaughlin t of the interval itself (its p-value has no floor
   * from the sample size, and it counts autocorrelated pairs in blocks as the interval does).
   */
  test?: 'rank' | 'trimmed-t';
}

export interface ConfidenceInterval {
  level: number;
  lower: number;
  upper: number;
  method: IntervalMethod;
  resamples: number;
  seed: number;
  /** How the data were resampled. */
  bootstrap: 'unpaired' | 'paired' | 'block';
  /**
   * Set when the interval is not a bootstrap's: `trimmed-t`, the Tukey–McLaughlin interval
   * of the trimmed mean of the log pair ratios (then `method` and `resamples` are unused).
   */
  direct?: 'trimmed-t';
  /**
   * Set when the interval comes from a look of a sequential design (suite allocation): the
   * look, out of how many, and the level of that look's own interval, which spends part of
   * 1 − level so that every look's interval together still holds with `level`.
   */
  sequential?: {
    look: number;
    looks: number;
    lookLevel: number;
    /**
     * The fewest pairs at which the design calls a change (verdict.ts `minPairsToCall`): a
     * look with fewer flags one for a later look, never calls it. Absent: no floor.
     */
    callFloor?: number;
  };
  /** Block length used by the block bootstrap (1 for paired iid resampling). */
  blockLength?: number;
}

export interface TestResult {
  /**
   * `exact`: both sides were each one constant (exact.ts), compared without a test: p is 0
   * when they differ and 1 when equal, and the result is outside any multiple-comparison family.
   */
  name: 'mann-whitney-u' | 'wilcoxon-signed-rank' | 'trimmed-t' | 'exact';
  /** How the p-value was obtained (scipy's choice of method for the same data). */
  method: 'exact' | 'asymptotic' | 'permutation';
  statistic: number;
  pValue: number;
  /** p-value after multiple-comparison adjustment across the family (equals pValue alone). */
  pValueAdjusted: number;
  adjustment: Adjustment;
}

export interface SideSummary {
  n: number;
  median: number;
  mean: number;
  gmean: number | null;
  sd: number;
  cv: number;
  mad: number;
  min: number;
  max: number;
}

/**
 * Two samples that were measured but form no relative change head/base − 1 (a base of 0,
 * negative values): what each side measured and why there is no ratio. Plain JSON.
 */
export interface NotComparable {
  /** Why no ratio can be formed, e.g. "base values are all 0: ...". */
  reason: string;
  /** The statistic the comparison would have used (the centre a report shows per side). */
  statistic: Statistic;
  base: SideSummary;
  head: SideSummary;
}

/** The result of comparing head against base for one metric: plain JSON. */
export interface Comparison {
  schemaVersion: typeof COMPARISON_SCHEMA_VERSION;
  /** Relative change head/base − 1 of the statistic (point estimate). */
  change: number;
  ci: ConfidenceInterval;
  test: TestResult;
  /** Two-sample Kolmogorov–Smirnov on the raw values: did the distribution shape change? */
  ks: { statistic: number; pValue: number; method: 'exact' | 'asymptotic' };
  n: { base: number; head: number };
  cv: { base: number; head: number };
  base: SideSummary;
  head: SideSummary;
  paired: boolean;
  statistic: Statistic;
  biggerIsBetter: boolean;
  threshold: number;
  /** Smallest relative change this data could detect at the CI level with `power`. */
  mde: number;
  power: number;
  verdict: Verdict;
  /**
   * For `inconclusive`: estimated further samples per side (pairs when paired) for the CI to
   * clear the threshold one way or the other; null when no number of samples would.
   */
  moreSamplesNeeded: number | null;
  seed: number;
  /** Plain-language caveats (degenerate data, autocorrelation...). */
  notes: string[];
}
