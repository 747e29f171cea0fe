import { createHash } from 'node:crypto';
import type { IsolationKind } from '../contracts/isolation.js';
import type { CgroupVersion, MachineFingerprint } from '../contracts/machine.js';

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
