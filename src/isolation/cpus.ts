import { readFileSync } from 'node:fs';
import type { CpuPlan } from './types.js';

/** Reads a kernel CPU list such as `0-3,8,10-11`. */
export function parseCpuList(text: string): number[] {
  const cpus: number[] = [];
  for (const part of text.trim().split(',')) {
    if (part === '') continue;
    const [from, to] = part.split('-').map(Number);
    if (!Number.isInteger(from) || (to !== undefined && !Number.isInteger(to))) {
      throw new RangeError(`not a CPU list: ${JSON.stringify(text)}`);
    }
    for (let cpu = from!; cpu <= (to ?? from!); cpu++) cpus.push(cpu);
  }
  return cpus;
}

/** Writes a CPU list in the kernel's compact form. */
export function formatCpuList(cpus: readonly number[]): string {
  const sorted = [...cpus].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** CPUs this process may run on (its affinity mask, which containers and taskset narrow). */
export function allowedCpus(statusFile = '/proc/self/status'): number[] {
  const match = /^Cpus_allowed_list:\s*(.+)$/m.exec(readFileSync(statusFile, 'utf8'));
  if (match === null) throw new Error(`no Cpus_allowed_list in ${statusFile}`);
  return parseCpuList(match[1]!);
}

/**
 * Splits the CPUs into `slotCount` disjoint sets of equal size, and keeps one CPU for the
 * harness when there is one to spare, so the process that times the sides never runs on a
 * measured CPU. With fewer CPUs than slots the sets cannot be disjoint: the caller must then
 * run without CPU isolation.
 */
export function planCpus(available: readonly number[], slotCount: number): CpuPlan | null {
  const cpus = [...available].sort((a, b) => a - b);
  if (cpus.length < slotCount) return null;
  const warnings: string[] = [];
  let harness: number[] | null = null;
  let pool = cpus;
  if (cpus.length >= slotCount + 1) {
    harness = [cpus[0]!];
    pool = cpus.slice(1);
  } else {
    warnings.push(
      `only ${cpus.length} CPUs for ${slotCount} measured slot(s): the harness shares them (it sleeps while an iteration runs)`,
    );
  }
  const size = Math.floor(pool.length / slotCount);
  const slots = Array.from({ length: slotCount }, (_, i) => pool.slice(i * size, (i + 1) * size));
  const spare = pool.slice(slotCount * size);
  return {
    slots,
    harness,
    warnings,
    record: {
      basis: 'in order',
      layout: null,
      harness: harness === null ? null : formatCpuList(harness),
      slots: slots.map(formatCpuList),
      idle: null,
      spare: spare.length === 0 ? null : formatCpuList(spare),
      siblingsInUse: false,
      reasons: ['the CPU topology could not be read: the CPU list was split in order'],
    },
  };
}
