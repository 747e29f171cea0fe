import type { ExperimentOptions } from '../runner/experiment.js';
import type { ListContext } from '../runner/list-benchmarks.js';
import type { SuiteRecord } from '../contracts/suite-record.js';

/** What a suite's preparation gets: the run's options, the baseline and a scratch directory. */
export type PrepareOptions = ExperimentOptions & {
  baseline: string;
  workDir: string;
  /** The environment a version's commands run in (index into `versions`). */
  envOf: (version: number) => NodeJS.ProcessEnv;
};

/** One benchmark of a suite (a unit of scheduling) and how each version runs it. */
export interface SuiteUnit {
  name: string;
  /**
   * The argv that runs this unit in version `version`, `repetitions` times in one process
   * (1 for formats that cannot repeat: `repeats` false).
   */
  argv(version: number, repetitions: number): string[];
  /** cwd per version index */
  cwd: string[];
  /** Fixed work per repetition, or per part (go `-benchtime Nx`), null when the tool chooses. */
  iterations: number | null;
  /**
   * Timed parts one repetition's work is run as (go: `-test.count`, each of `iterations`),
   * whose fastest is the trial's value (`suite.within`); 1 where the format has none of its own
   * to split. Absent: 1.
   */
  parts?: number;
  /** Time per operation the calibration measured, ns; null without one. */
  nsPerOp: number | null;
  /**
   * The share of one process start this unit bears (grouped go: 1 / the benchmarks its process
   * runs); absent: 1, a process of its own.
   */
  processShare?: number;
}

/** A suite ready to measure: its units and what preparing them cost. */
export interface PreparedSuite {
  units: SuiteUnit[];
  lists: Record<string, string[]>;
  missing: { benchmark: string; versions: string[] }[];
  build: SuiteRecord['build'];
  /** Seconds spent listing and calibrating (after the build). */
  calibrationSeconds: number;
  /**
   * Whether one process can run a unit several times with the same fixed work each time, so
   * that the base's k-th repetition and the head's k-th form a pair (go: `-test.count`
   * with `-benchtime Nx`). Such pairs cost one process start per k of them.
   */
  repeats: boolean;
  /** The fewest repetitions the format's process can run (criterion: 10 samples). */
  minRepetitions?: number;
  /**
   * Seconds one process takes to start and do nothing (go: the test binary with no benchmark
   * selected — the runtime, the package's init, its test data), measured during
   * preparation; null when not measured. Sizes the repetitions per process.
   */
  startupSeconds: number | null;
  cleanup: (() => Promise<void>)[];
  /**
   * With `granularity: group`: the argv that runs these units together in one process, in
   * version `version` (in the units' `cwd`).
   */
  group: ((names: string[], version: number) => string[]) | null;
  /**
   * Copies of each version's program (the units' argv[0]), one drawn for each process
   * (SideContext.programs); absent: the program itself.
   */
  programs?: (version: number) => readonly string[];
  /**
   * With `group`: the sets of a stage's units that may share a process, in order (go: siblings
   * of like cost, one `-benchtime` for all); each set is then run in chunks. Absent: any.
   */
  partition?: (names: readonly string[]) => string[][];
  /**
   * The group's process warms each benchmark up itself (criterion's warm-up time), so its
   * first stage needs no warm-up round — a round of the whole suite, the costliest there is.
   */
  groupWarmsUp?: boolean;
}

/**
 * How one format prepares a suite: builds each version's benchmark program once where it
 * can, finds the benchmarks, calibrates them. One file per format (prepare-go.ts,
 * prepare-cargo.ts, prepare-listed.ts for every format that can list its benchmarks),
 * chosen in preparers.ts: the scheduler (run-suite.ts) knows no format.
 */
export interface SuitePreparer {
  prepare(options: PrepareOptions): Promise<PreparedSuite>;
}

/** Where version `i`'s preparation commands run: its directory, environment and signal. */
export function versionContext(options: PrepareOptions, i: number): ListContext {
  return {
    version: options.versions[i]!.name,
    cwd: options.versions[i]!.dir,
    env: options.envOf(i),
    signal: options.signal,
  };
}

/** Seconds since `from` (a `process.hrtime.bigint()` reading). */
export function secondsSince(from: bigint): number {
  return Number(process.hrtime.bigint() - from) / 1e9;
}
