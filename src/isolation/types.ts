import type { CpuPlanRecord, IsolationReport } from '../contracts/isolation.js';

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
  /** The same plan as plain data for the report, with its reasons. */
  record: CpuPlanRecord;
}
