import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parseCpuList } from './cpus.js';

/** Where one logical CPU sits: its package, its core (the SMT threads sharing it), its LLC. */
export interface CpuPlace {
  cpu: number;
  /** `physical_package_id`: the socket. */
  package: number;
  /** `core_id`: unique within a package only. */
  core: number;
  /** `thread_siblings_list`: the logical CPUs of its core, itself included. */
  siblings: number[];
  /** `shared_cpu_list` of its highest-level cache; null when sysfs has no cache entries. */
  llc: number[] | null;
}

/** The layout of the CPUs a run may use, as the kernel describes them under `/sys`. */
export interface CpuTopology {
  cpus: CpuPlace[];
}

/**
 * Reads the topology of `cpus` from `<sysRoot>/devices/system/cpu/cpuN/`. `sysRoot` is `/sys`
 * on a real machine and a directory written by a test elsewhere. Returns null when any of the
 * three topology files of any CPU cannot be read (containers hiding sysfs, odd kernels): the
 * caller then splits the CPU list in order, as before topology was read.
 */
export function readTopology(cpus: readonly number[], sysRoot = '/sys'): CpuTopology | null {
  const places: CpuPlace[] = [];
  for (const cpu of cpus) {
    const dir = path.join(sysRoot, 'devices/system/cpu', `cpu${cpu}`);
    try {
      const read = (file: string): string => readFileSync(path.join(dir, file), 'utf8').trim();
      const pkg = Number(read('topology/physical_package_id'));
      const core = Number(read('topology/core_id'));
      const siblings = parseCpuList(read('topology/thread_siblings_list'));
      if (!Number.isInteger(pkg) || !Number.isInteger(core) || !siblings.includes(cpu)) {
        return null;
      }
      places.push({ cpu, package: pkg, core, siblings, llc: lastLevelCache(dir) });
    } catch {
      return null;
    }
  }
  return { cpus: places };
}

/** The CPUs sharing the highest-level cache of a CPU (`cache/indexN/level` and its list). */
function lastLevelCache(cpuDir: string): number[] | null {
  let best: { level: number; cpus: number[] } | null = null;
  let entries: string[];
  try {
    entries = readdirSync(path.join(cpuDir, 'cache')).filter((e) => /^index\d+$/.test(e));
  } catch {
    return null;
  }
  for (const entry of entries) {
    try {
      const dir = path.join(cpuDir, 'cache', entry);
      const level = Number(readFileSync(path.join(dir, 'level'), 'utf8').trim());
      const cpus = parseCpuList(readFileSync(path.join(dir, 'shared_cpu_list'), 'utf8'));
      if (best === null || level > best.level) best = { level, cpus };
    } catch {
      // an index without these files (some arm64 kernels) says nothing about sharing
    }
  }
  return best?.cpus ?? null;
}

/** One physical core: its logical CPUs that the run may use, lowest first. */
export interface Core {
  package: number;
  threads: number[];
  llc: number[] | null;
}

/** Groups the CPUs into cores, ordered by package and then by their lowest CPU. */
export function coresOf(topology: CpuTopology): Core[] {
  const byKey = new Map<string, Core>();
  for (const place of topology.cpus) {
    const key = `${place.package}/${place.core}/${place.siblings.join(',')}`;
    const core = byKey.get(key) ?? { package: place.package, threads: [], llc: place.llc };
    core.threads.push(place.cpu);
    byKey.set(key, core);
  }
  const cores = [...byKey.values()];
  for (const core of cores) core.threads.sort((a, b) => a - b);
  return cores.sort((a, b) => a.package - b.package || a.threads[0]! - b.threads[0]!);
}

/** `1 package × 2 cores × 2 threads`, or the counts when the shape is not uniform. */
export function describeLayout(cores: readonly Core[]): string {
  const packages = new Set(cores.map((c) => c.package)).size;
  const threads = new Set(cores.map((c) => c.threads.length));
  const perPackage = cores.length / packages;
  const cpuCount = cores.reduce((n, c) => n + c.threads.length, 0);
  if (threads.size !== 1 || !Number.isInteger(perPackage)) {
    return `${cores.length} cores, ${cpuCount} CPUs`;
  }
  const t = [...threads][0]!;
  return `${packages} package${packages === 1 ? '' : 's'} × ${perPackage} core${perPackage === 1 ? '' : 's'} × ${t} thread${t === 1 ? '' : 's'}`;
}
