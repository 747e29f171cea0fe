/** How a side's processes are confined, as stated in every report. */
export type IsolationKind = 'cgroup-v1' | 'cgroup-v2' | 'taskset' | 'none';
export type IsolationRequest = 'auto' | 'cpuset' | 'taskset' | 'none';

/** What isolation was actually in effect: recorded in the samples JSON. */
export interface IsolationReport {
  requested: IsolationRequest;
  kind: IsolationKind;
  /** CPU list (`"1"`, `"2-3"`) of each slot; null when processes may run anywhere. */
  slots: (string | null)[];
  /** CPUs the harness itself was pinned to; null when it shares the CPUs (too few of them). */
  harnessCpus: string | null;
  /** The cgroup directory created for the run (removed afterwards); null without cgroups. */
  cgroup: string | null;
  /**
   * The CPU weight the measured processes were given over everything else on their CPUs
   * (`cpu.shares=262144` on cgroup v1, `cpu.weight=10000` on v2); absent when none was (no
   * cgroups, no cpu controller, or `cpuWeight: false`).
   */
  cpuWeight?: string;
  /**
   * True when the harness, sharing the measured CPUs, ran with the slots' weight (so that it
   * releases the spinning sides promptly). Absent otherwise.
   */
  harnessWeighted?: boolean;
  /** Why the isolation is weaker than it could be; shown to the user. */
  warnings: string[];
}

/** How to start a process inside one slot. */
export interface Placement {
  /** argv prefix (e.g. `taskset -c 1`); empty when `attach` does the work. */
  readonly prefix: readonly string[];
  /**
   * Moves a freshly spawned process into the slot. The runner spawns every process stopped
   * behind a gate and opens it only after `attach` resolves, so nothing is measured outside.
   */
  attach(pid: number): Promise<void>;
  /** Moves a running process (all its threads) into the slot; for long-lived processes. */
  move(pid: number): Promise<void>;
}

/** An isolation backend set up for one run. */
export interface Isolation {
  readonly report: IsolationReport;
  place(slot: number): Placement;
  /** Kills whatever is still inside the slots and removes cgroups. Idempotent. */
  dispose(): Promise<void>;
}

/** The CPUs a run may use, split between the harness and the slots. */
export interface CpuPlan {
  slots: number[][];
  harness: number[] | null;
  warnings: string[];
}
