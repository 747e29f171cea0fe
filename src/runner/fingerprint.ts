import { createHash } from 'node:crypto';
import type { IsolationKind } from '../isolation/types.js';

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

/** What was read from the machine; every file that could not be read is null. */
export interface FingerprintProbe {
  cpuinfo: string | null;
  kernel: string;
  arch: string;
  vcpus: number;
  layout: string | null;
  cgroup: CgroupVersion;
  hypervisorType: string | null;
  dmiVendor: string | null;
  dmiProduct: string | null;
  env: Readonly<Record<string, string | undefined>>;
}

/** The fingerprint from what was probed. Pure. */
export function buildFingerprint(
  probe: FingerprintProbe,
  isolation: IsolationKind | null,
): MachineFingerprint {
  const fields = cpuinfoFields(probe.cpuinfo ?? '');
  const flags = fields.get('flags') ?? fields.get('Features');
  const arm = [fields.get('CPU implementer'), fields.get('CPU part')].filter(Boolean);
  const env = (name: string): string | null => probe.env[name]?.trim() || null;
  const stable = {
    cpuModel: fields.get('model name') ?? (arm.length > 0 ? `arm ${arm.join(' ')}` : null),
    microcode: fields.get('microcode') ?? null,
    kernel: probe.kernel,
    arch: probe.arch,
    vcpus: probe.vcpus,
    layout: probe.layout,
    cgroup: probe.cgroup,
    hypervisor: {
      present: flags === undefined ? null : flags.split(/\s+/).includes('hypervisor'),
      type: probe.hypervisorType?.trim() || null,
      vendor: probe.dmiVendor?.trim() || null,
      product: probe.dmiProduct?.trim() || null,
    },
    image: {
      os: env('ImageOS'),
      version: env('ImageVersion'),
      runnerOs: env('RUNNER_OS'),
      runnerArch: env('RUNNER_ARCH'),
    },
  };
  const id = createHash('sha256').update(JSON.stringify(stable)).digest('hex').slice(0, 12);
  return { ...stable, isolation, id };
}

/** The first processor's `key : value` lines of /proc/cpuinfo. */
function cpuinfoFields(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^([^:\t]+?)\s*:\s*(.*)$/.exec(line);
    if (match === null) {
      if (line.trim() === '' && fields.size > 0 && fields.has('processor')) break;
      continue;
    }
    if (!fields.has(match[1]!)) fields.set(match[1]!, match[2]!.trim());
  }
  return fields;
}
