import type { ProfilerName } from './profile.js';

/**
 * The differential profile of one called result (issue 23): where its time went, from the
 * profiles of base and head taken after the verdict (contracts/profile.ts). Part of
 * `comparison.json` from version 4, as `BenchmarkResult.explain`. Shares are fractions of a
 * side's samples (0.057 = 5.7%); changes are differences of shares (0.057 = 5.7 percentage
 * points); contributions are fractions of base's time per unit of work (0.057 = 5.7% of base's
 * time). Blocks written before the contribution's interval (early version 4) lack
 * `timeRatioInterval`, `contributionLower` and `contributionUpper`, and their `beyondNoise` rests
 * on the change of share.
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
   * Head's time per unit of work over base's, the profiled process's: the measured
   * comparison's when the profile ran only the benchmark (`measured`); the whole command's
   * CPU time from the measured pairs when it ran every benchmark the command reports
   * (`command`); otherwise from the profiles' samples per unit of work (`profile`). The
   * contributions are in units of base's time per unit of work.
   */
  timeRatio: number | null;
  timeRatioSource: 'measured' | 'command' | 'profile' | null;
  /**
   * The time ratio's interval at each row's level (`method.level`), joined into every
   * contribution's interval; null when there is none (`profile`: the chunk bootstrap
   * resamples the ratio with the shares). Absent in early version 4 files.
   */
  timeRatioInterval?: { lower: number; upper: number; level: number } | null;
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
  /** The tests in the family (function × kind rows whose contribution could reach `minChange`). */
  tests: number;
  /** Bonferroni: the level of each interval, 1 − (1 − familyLevel) / tests. */
  level: number;
  /**
   * Smallest |contribution| called beyond noise, a fraction of base's time (0.005 = 0.5%);
   * in early version 4 files, the smallest change of share (0.005 = 0.5 pp).
   */
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
  /**
   * The contribution's interval at `method.level` (Bonferroni across the rows), with the
   * shares' and the time ratio's uncertainty (docs/explain.md). Absent in early version 4.
   */
  contributionLower?: number;
  contributionUpper?: number;
  /**
   * The contribution's interval excludes 0 and |contribution| ≥ minChange (early version 4:
   * the change of share's interval and |change|).
   */
  beyondNoise: boolean;
}
