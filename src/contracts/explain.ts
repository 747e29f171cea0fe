import type { ProfilerName } from './profile.js';

/**
 * The differential profile of one called result (issue 23): where its time went, from the
 * profiles of base and head taken after the verdict (contracts/profile.ts). Part of
 * `comparison.json` from version 4, as `BenchmarkResult.explain`. Shares are fractions of a
 * side's samples (0.057 = 5.7%); changes are differences of shares (0.057 = 5.7 percentage
 * points).
 */
export interface Explain {
  /** The profiler of both sides; null when no profile could be had (`warning` says why). */
  profiler: ProfilerName | null;
  /** Samples per side (every chunk together). */
  samples: { base: number; head: number };
  /** The work the profiled processes did, in `unit`s (per-unit-of-work normalisation). */
  work: { base: number; head: number; unit: 'iteration' | 'op' } | null;
  /** Machine time spent profiling this benchmark, s (never part of a measured pair). */
  seconds: number;
  /**
   * Head's time per unit of work over base's: from the measured comparison when there is
   * one (`measured`), otherwise from the profiles' samples per unit of work (`profile`).
   * The contributions are in units of base's time per unit of work.
   */
  timeRatio: number | null;
  timeRatioSource: 'measured' | 'profile' | null;
  /** How the intervals were made and what counts as beyond noise. */
  method: ExplainMethod | null;
  /** The tested functions, ordered: self rows then total rows, each by contribution. */
  functions: ExplainFunction[];
  /** Artifacts, relative to the results directory. */
  files: { flameGraph: string | null; raw: string[] };
  /** Why the profile is missing or partial; null when both sides were profiled. */
  warning: string | null;
}

/** How the differential's intervals were made (docs/explain.md, "Reading the differential"). */
export interface ExplainMethod {
  /**
   * `bootstrap`: each side has at least `minChunks` chunks; the standard error of the change
   * comes from resampling chunks, and the interval is never narrower than Newcombe's.
   * `newcombe`: Newcombe's hybrid score interval on the sample counts.
   */
  interval: 'bootstrap' | 'newcombe';
  /** The level every function's interval holds together (family-wise), e.g. 0.99. */
  familyLevel: number;
  /** The tests in the family (function × kind rows that could reach `minChange`). */
  tests: number;
  /** Bonferroni: the level of each interval, 1 − (1 − familyLevel) / tests. */
  level: number;
  /** Smallest change of share called beyond noise, as a fraction (0.005 = 0.5 pp). */
  minChange: number;
  chunks: { base: number; head: number };
  minChunks: number;
  /** Bootstrap resamples and seed (null for `newcombe`). */
  resamples: number | null;
  seed: number | null;
}

/** One function's share in base and head. */
export interface ExplainFunction {
  name: string;
  /** `self`: samples where it is the leaf; `total`: samples where it is anywhere on the stack. */
  kind: 'self' | 'total';
  base: number;
  head: number;
  /** head − base, a fraction (× 100 = percentage points). */
  change: number;
  lower: number;
  upper: number;
  /**
   * What this function added to (or, negative, took from) the time per unit of work, in
   * units of base's time: head × timeRatio − base. Self rows sum to timeRatio − 1, the
   * measured change.
   */
  contribution: number;
  /** The interval excludes 0 and |change| ≥ minChange. */
  beyondNoise: boolean;
}
