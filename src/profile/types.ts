import type { FoldedStack, ProfilerName, ProfileSide } from '../contracts/profile.js';

/** One profiled run of one side: what a route needs to wrap the command. */
export interface ProfileJob {
  /** The command of one run, already narrowed to the benchmark where the format allows. */
  argv: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Absolute directory for this run's raw files (the results' `profiles/<benchmark>/`). */
  dir: string;
  /** File name stem of this run's raw files (`base.1`). */
  stem: string;
  /** A private scratch directory of the run, removed afterwards. */
  scratch: string;
  /** Samples per second. */
  frequency: number;
  /** perf's call graphs. */
  callGraph: 'fp' | 'dwarf';
}

/** The command a route runs instead of the job's, and where its profile will be. */
export interface WrappedRun {
  argv: string[];
  env: NodeJS.ProcessEnv;
}

/** What a route read from one run: its stacks and the raw files it kept (absolute paths). */
export interface RunProfile {
  stacks: FoldedStack[];
  files: string[];
}

/** Whether a route can run here, and what was done to make it (perf through sudo -n). */
export interface Readiness {
  /** Null when the profiler can run; otherwise why not, for the warning. */
  problem: string | null;
  notes: string[];
}

/**
 * A sampling profiler: one file per profiler, one entry in `registry.ts`. `wrap` turns a
 * side's command into the profiled one, `read` folds what it wrote; nothing else about the
 * profiler is known outside its file.
 */
export interface ProfilerRoute {
  readonly name: ProfilerName;
  /** What `work` of a chunk counts for this route's workloads. */
  readonly workUnit: ProfileSide['workUnit'];
  /** Seconds between two samples at `frequency`, null when the profiler does not say. */
  period(frequency: number): number | null;
  /** Probes the profiler once per run (a missing binary, perf not permitted…). */
  ready(env: NodeJS.ProcessEnv): Promise<Readiness>;
  /** Writes what the wrapped run needs (a preload, a directory) before it starts. */
  prepare?(job: ProfileJob): Promise<void>;
  wrap(job: ProfileJob): WrappedRun;
  /** Reads and folds what the wrapped run wrote; throws with the reason when it wrote nothing. */
  read(job: ProfileJob): Promise<RunProfile>;
}
