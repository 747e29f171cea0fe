import type { Scenario } from '../scenario/schema.js';
import type { ClusterRecord } from './cluster-record.js';
import type { Efficiency } from './efficiency.js';
import type { IsolationReport } from './isolation.js';
import type { LoadRecord } from './load.js';
import type { MachineInfo } from './machine.js';
import type { StopReason } from './stop-reason.js';
import type { SuiteRecord } from './suite-record.js';

/**
 * The samples file (`samples.json`): what a run measured, the boundary between `duetkit run`
 * (runner, suite, cluster) and `duetkit analyze`. Plain data; its parts live beside it in
 * src/contracts/.
 */

/** Version of the samples JSON; bump on any incompatible change. */
export const SAMPLES_SCHEMA_VERSION = 1;

/** One named metric as one trial produced it. */
export interface TrialMetric {
  name: string;
  unit: string;
  biggerIsBetter: boolean;
  values: number[];
  /**
   * Time the tool says it spent measuring this metric in the trial, ns (go: b.N × ns/op of
   * each line; criterion: its samples' times), for the efficiency accounting. Absent when
   * the tool does not say, and on derived metrics.
   */
  measuredNs?: number;
  /** The metric is a function of another of the same trial (go's MB/s of ns/op): its name. */
  derivedFrom?: string;
  /**
   * `samples`: every value is one measurement (raw samples, or the harness's wall time).
   * `summary`: the tool reported only an aggregate (a mean), so the run is one sample.
   * Absent in files written before it was recorded.
   */
  valueKind?: 'samples' | 'summary';
  /**
   * The values are repetitions of the same fixed work in one process (a suite's go
   * `-test.count` with `-benchtime Nx`), started together with the other versions' in a
   * duet: the k-th values of the versions in one round form a pair. Absent: the trial is one
   * observation (the median of its values, or the fastest: `reduce`).
   */
  positional?: true;
  /**
   * `fastest`: the values are timed parts of one process's work (a suite's go parts,
   * criterion's samples, pytest-benchmark's rounds), and the trial's one value is the fastest
   * of them — the least time, or the most throughput where bigger is better (a suite's
   * `within: fastest`). Counts are reduced by their median all the same. Absent: the median.
   */
  reduce?: 'fastest';
}

/** One run of one version's workload: an iteration (duet) or a trial (rmit, mit, mct, single). */
export interface Trial {
  /** Index into `versions`. */
  version: number;
  /** Round (duet: iteration) this trial belongs to; warm-up rounds count too. */
  round: number;
  warmup: boolean;
  /** CPU slot it ran in (`isolation.slots[slot]` lists the CPUs). */
  slot: number;
  /** Milliseconds since `startedAt` (microsecond resolution) when the harness released it. */
  startMs: number;
  endMs: number;
  /**
   * Wall time, milliseconds: `endMs − startMs`, stamped by the timer on the side's own CPU
   * (or by the harness when `timing.clock` is `harness`).
   */
  wallMs: number;
  /** CPU time (user + system) of the command and its waited-for children, ms (timer only). */
  cpuMs?: number;
  /** When the harness learned that the iteration had ended (a diagnostic of its lag). */
  seenEndMs?: number;
  /**
   * Which copy of the program this process ran (0-based), where a suite runs each version's
   * program from several (a Go test binary: suite/prepare-go.ts `GO_BINARY_COPIES`).
   */
  program?: number;
  metrics: TrialMetric[];
  /** With `workload.perBenchmark`: the listed benchmark this trial's command ran. */
  benchmark?: string;
  /**
   * Why this trial is not analysed (the load generator could not keep up, say); the report
   * lists it. Absent: valid.
   */
  invalid?: string;
  /** http driver: the load offered and what the servers did with it (load.ts). */
  load?: LoadRecord;
}

/** How a per-benchmark run (`workload.perBenchmark`) chose and ran its benchmarks. */
export interface PerBenchmarkRecord {
  /** The version whose list decided what runs (the baseline). */
  listedBy: string;
  /** Every version's list, as its tool printed it (names in the tool's own spelling). */
  lists: Record<string, string[]>;
  /** The benchmarks run, in order, with the argv that ran one alone and how its run ended. */
  runs: { benchmark: string; argv: string[]; stopReason: StopReason }[];
  /** Selected benchmarks that some version does not list: never run, errors in the report. */
  missing: { benchmark: string; versions: string[] }[];
}

export interface VersionRecord {
  name: string;
  /** As the scenario gave it: a path or a git ref. */
  source: { path: string } | { ref: string; dir?: string };
  /** Full commit id, or null outside a git repository. */
  commit: string | null;
  /** True when the checkout had uncommitted changes (path versions only). */
  dirty: boolean;
  /** Directory the workload ran in (a temporary worktree for refs, since removed). */
  dir: string;
}

/** How a command or persistent workload's iterations were timed. */
export interface TimingRecord {
  driver: 'command' | 'persistent';
  /**
   * `timer`: stamped at spawn and at exit on the side's own CPU by duetkit-timer, with the
   * CPU time from wait4; `harness`: by the harness's clock, which wakes late on a busy
   * machine and blurs small differences (the timer could not be built: see `warnings`).
   */
  clock: 'timer' | 'harness';
  /** In a duet, what a side that finished first did until the other had finished. */
  keepBusy: KeepBusy;
  /**
   * In a duet of commands: the start offset between the sides, ms (a random side started
   * this much later each round, so that the sides never end together). Absent: they started
   * together.
   */
  staggerMs?: number;
  /** Why the timing is weaker than it could be; shown to the user. */
  warnings: string[];
}

/** How the side that finishes first keeps its CPU busy until the others finish. */
export type KeepBusy = 'repeat' | 'spin' | 'off';

/** Everything a run measured: the boundary between `duetkit run` and `duetkit analyze`. */
export interface SamplesFile {
  schemaVersion: typeof SAMPLES_SCHEMA_VERSION;
  tool: { name: 'duetkit'; version: string };
  /** False when the run was interrupted or failed: the samples are those gathered until then. */
  complete: boolean;
  stopReason: StopReason;
  /** Why the run failed or stopped early, for the user. */
  error: string | null;
  scenario: Scenario;
  scenarioFile: string | null;
  mode: Scenario['mode'];
  seed: number;
  startedAt: string;
  finishedAt: string;
  machine: MachineInfo;
  isolation: IsolationReport;
  /** With the command driver (absent in files written before it was recorded). */
  timing?: TimingRecord;
  versions: VersionRecord[];
  /** Version names in the order they ran, one list per round (warm-up rounds included). */
  order: { round: number; warmup: boolean; versions: string[]; benchmark?: string }[];
  trials: Trial[];
  /** Present when the suite ran one benchmark at a time (`workload.perBenchmark`). */
  perBenchmark?: PerBenchmarkRecord;
  /** Present for a suite under one budget (`suite:`): looks, stages, build, calibration. */
  suite?: SuiteRecord;
  /**
   * Measured time ÷ machine time and where the rest went, as the run ended (the same as the
   * report's; absent in files written before it was recorded).
   */
  efficiency?: Efficiency;
  /** Present when the run went to a Kubernetes cluster (`cluster:`): where, and at what cost. */
  cluster?: ClusterRecord;
}
