/**
 * Profiles of base and head taken after the verdict (issue 23): what the profiling stage
 * (`src/profile/`) hands to the differential (`src/explain/`). Plain JSON, like every contract.
 *
 * A stack is root first (`['main', 'run', 'checksum_loop']`); its last frame is where the
 * sample's time is *self* time. Frame names are as the profiler symbolised them
 * (`function` or `function (file)`); unknown frames are `[unknown]`.
 */

/** The sampling profiler that made a side's profile. */
export type ProfilerName = 'perf' | 'pprof' | 'py-spy' | 'node';

/** What one profiled process ran (`ProfilePair.scope`). */
export type ProfileScope = 'benchmark' | 'command';

/** One distinct stack and the samples that hit it. */
export interface FoldedStack {
  frames: string[];
  count: number;
}

/**
 * One unit of repetition of a side's profile: one profiled process (or one iteration of a
 * persistent one). The differential bootstraps over chunks when each side has enough of
 * them, and otherwise treats samples as binomial draws.
 */
export interface ProfileChunk {
  stacks: FoldedStack[];
  /** The work this chunk did, in `ProfileSide.workUnit`s (iterations or operations). */
  work: number;
}

/** One side's profile of one benchmark. */
export interface ProfileSide {
  /** The version's label (`base`, `head`, …) as in samples.json. */
  version: string;
  profiler: ProfilerName;
  /** What `work` counts: command iterations, or the tool's operations (Go's b.N). */
  workUnit: 'iteration' | 'op';
  /** Seconds between two samples (e.g. 1/999 for perf at 999 Hz), null when unknown. */
  period: number | null;
  chunks: ProfileChunk[];
  /** Raw profiles as the profiler wrote them, relative to the results directory. */
  files: string[];
}

/** Base and head of one benchmark, profiled in a duet after the measured pairs. */
export interface ProfilePair {
  benchmark: string;
  /**
   * What a profiled process ran: only this benchmark (`benchmark`: a Go benchmark, the
   * scenario's `workload.benchmarkCommand`, a format's filter, or a command timed whole), or
   * the whole command, every benchmark it reports (`command`: a program that prints several
   * results and cannot be told to run one). Absent in files written before it: read as
   * `benchmark`.
   */
  scope?: ProfileScope;
  /** Null with `warning` set when that side could not be profiled. */
  base: ProfileSide | null;
  head: ProfileSide | null;
  /** Machine time spent profiling this benchmark, s (never part of a measured pair). */
  seconds: number;
  /** Why the profile is missing or partial (profiler absent, perf not permitted, …). */
  warning: string | null;
}

/** Version of `profiles.json`, the profiling stage's output. */
export const PROFILES_SCHEMA_VERSION = 1;

/** `profiles.json`: every profiled benchmark of a run. */
export interface ProfilesFile {
  schemaVersion: typeof PROFILES_SCHEMA_VERSION;
  /** `changed` (the called results), `always` or `never`, as the scenario or CLI asked. */
  policy: 'changed' | 'always' | 'never';
  pairs: ProfilePair[];
  /** Machine time spent profiling in all, s. */
  seconds: number;
  /** Run-wide warnings (e.g. `perf` not permitted: perf_event_paranoid 4 and no sudo). */
  warnings: string[];
}
