import type { MachineFingerprint } from '../contracts/machine.js';

/** One line for reports: `AMD EPYC 7763 64-Core Processor, 1 package × 2 cores × 2 threads, …`. */
export function describeFingerprint(f: MachineFingerprint): string {
  const hypervisor = f.hypervisor.present
    ? `virtual (${[f.hypervisor.type, f.hypervisor.vendor, f.hypervisor.product].filter(Boolean).join(', ') || 'hypervisor flag'})`
    : f.hypervisor.present === false
      ? 'bare metal'
      : null;
  const image =
    f.image.os === null ? null : [f.image.os, f.image.version].filter(Boolean).join(' ');
  return [
    f.cpuModel ?? 'unknown CPU',
    f.microcode === null ? null : `microcode ${f.microcode}`,
    `${f.vcpus} vCPUs${f.layout === null ? '' : ` (${f.layout})`}`,
    `${f.arch} Linux ${f.kernel}`,
    `cgroup ${f.cgroup}`,
    hypervisor,
    image === null ? null : `image ${image}`,
    `fingerprint ${f.id}`,
  ]
    .filter((part): part is string => part !== null)
    .join(', ');
}
