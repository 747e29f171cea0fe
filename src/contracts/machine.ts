import type { IsolationKind } from './isolation.js';

/** The machine a run measured on, recorded with every samples file. */
export interface MachineInfo {
  hostname: string;
  platform: string;
  arch: string;
  kernel: string;
  cpuModel: string;
  cores: number;
  memoryBytes: number;
  /** 1, 5 and 15 minute load averages when the run started. */
  loadAverage: number[];
  node: string;
  /**
   * What kind of machine it was, for comparing runs (src/runner/fingerprint.ts); absent in
   * files written before it was recorded.
   */
  fingerprint?: MachineFingerprint;
}

/**
 * What a run's machine was, in the terms that change timings: recorded in every samples
 * file (`machine.fingerprint`), so a comparison or a history series can tell when two runs
 * did not measure on the same kind of machine (GitHub's runners mix CPU models).
 */
export interface MachineFingerprint {
  /** `model name` of /proc/cpuinfo (else the CPU implementer and part on arm64). */
  cpuModel: string | null;
  /** `microcode` of /proc/cpuinfo (x86): a microcode update can change timings alone. */
  microcode: string | null;
  /** os.release(). */
  kernel: string;
  arch: string;
  /** Logical CPUs this process may use. */
  vcpus: number;
  /** Packages, cores and SMT threads (`1 package × 2 cores × 2 threads`); null when unread. */
  layout: string | null;
  /** The cgroup version holding the CPU controllers: `v2`, `v1` or `none`. */
  cgroup: CgroupVersion;
  /** The isolation in effect for the run; null when it was never set up (doctor). */
  isolation: IsolationKind | null;
  hypervisor: HypervisorInfo;
  /** GitHub's runner image and runner (`ImageOS`, `ImageVersion`, `RUNNER_OS`, `RUNNER_ARCH`). */
  image: {
    os: string | null;
    version: string | null;
    runnerOs: string | null;
    runnerArch: string | null;
  };
  /** 12 hex digits over everything above but the isolation: equal ids, same kind of machine. */
  id: string;
}

export type CgroupVersion = 'v2' | 'v1' | 'none';

export interface HypervisorInfo {
  /** True when the CPU says it runs under a hypervisor (the `hypervisor` flag); null: unknown. */
  present: boolean | null;
  /** /sys/hypervisor/type (`xen`). */
  type: string | null;
  /** /sys/class/dmi/id/sys_vendor and product_name (`Microsoft Corporation`, `Virtual Machine`). */
  vendor: string | null;
  product: string | null;
}
