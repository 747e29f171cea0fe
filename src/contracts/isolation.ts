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
  /** How the CPUs were split, and why (cpu-plan.ts). Absent in files written before it was recorded. */
  cpuPlan?: CpuPlanRecord;
  /**
   * cgroup v2: the partition type (`root`) the measured CPUs were made for the run, so that no
   * other process could be scheduled on them. Absent when they were not (the reason is among
   * the warnings).
   */
  partition?: 'root';
  /** Why the isolation is weaker than it could be; shown to the user. */
  warnings: string[];
}

/** A CPU plan as the isolation report records it: CPU lists in the kernel's form. */
export interface CpuPlanRecord {
  /**
   * `topology`: cores, threads and packages read from sysfs; `in order`: the topology could
   * not be read, and the CPU list was split in order.
   */
  basis: 'topology' | 'in order';
  /** `1 package × 2 cores × 2 threads`; null without topology. */
  layout: string | null;
  harness: string | null;
  slots: string[];
  /** SMT siblings of measured CPUs that the plan gives to no one. */
  idle: string | null;
  /** CPUs left over after equal sets (the load generator may use them). */
  spare: string | null;
  /** True when a measured CPU's SMT sibling runs the harness (no core to spare for it). */
  siblingsInUse: boolean;
  /** Why the CPUs were split this way, one sentence each. */
  reasons: string[];
}
