import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { formatCpuList } from '../../src/isolation/cpus.js';

/** A machine's shape: packages × cores × SMT threads, and how Linux numbers the threads. */
export interface Shape {
  packages: number;
  cores: number;
  threads: number;
  /**
   * `adjacent`: a core's threads are consecutive (siblings `0-1`, `2-3`: GitHub's 4-vCPU
   * runners as `lscpu` shows them); `split`: first every core's first thread, then the
   * second ones (siblings `0,2` and `1,3`; 2-socket Intel servers: `0,16`).
   */
  enumeration: 'adjacent' | 'split';
  /** Write `cache/index*` (the last-level cache per package). Default true. */
  caches?: boolean;
}

/**
 * Writes `<root>/devices/system/cpu/cpuN/{topology,cache}` for a shape, as the kernel lays
 * them out; returns the CPU numbers.
 */
export async function writeSysfs(root: string, shape: Shape): Promise<number[]> {
  const { packages, cores, threads } = shape;
  const number = (p: number, c: number, t: number): number =>
    shape.enumeration === 'adjacent'
      ? (p * cores + c) * threads + t
      : t * packages * cores + p * cores + c;
  const all: number[] = [];
  for (let p = 0; p < packages; p++) {
    const inPackage: number[] = [];
    for (let c = 0; c < cores; c++)
      for (let t = 0; t < threads; t++) inPackage.push(number(p, c, t));
    for (let c = 0; c < cores; c++) {
      const siblings = Array.from({ length: threads }, (_, t) => number(p, c, t));
      for (const cpu of siblings) {
        const dir = path.join(root, 'devices/system/cpu', `cpu${cpu}`);
        await mkdir(path.join(dir, 'topology'), { recursive: true });
        await writeFile(path.join(dir, 'topology/physical_package_id'), `${p}\n`);
        await writeFile(path.join(dir, 'topology/core_id'), `${c}\n`);
        await writeFile(
          path.join(dir, 'topology/thread_siblings_list'),
          `${formatCpuList(siblings)}\n`,
        );
        all.push(cpu);
        if (shape.caches === false) continue;
        const caches: [number, string][] = [
          [1, formatCpuList(siblings)],
          [1, formatCpuList(siblings)],
          [2, formatCpuList(siblings)],
          [3, formatCpuList(inPackage)],
        ];
        for (const [i, [level, shared]] of caches.entries()) {
          const index = path.join(dir, 'cache', `index${i}`);
          await mkdir(index, { recursive: true });
          await writeFile(path.join(index, 'level'), `${level}\n`);
          await writeFile(path.join(index, 'shared_cpu_list'), `${shared}\n`);
        }
      }
    }
  }
  return all.sort((a, b) => a - b);
}

/** The shapes of the runners people use. */
export const SHAPES = {
  /** GitHub's 4-vCPU x64 runner (public repositories): 2 cores × 2 threads, EPYC 7763. */
  github4Adjacent: { packages: 1, cores: 2, threads: 2, enumeration: 'adjacent' },
  github4Split: { packages: 1, cores: 2, threads: 2, enumeration: 'split' },
  /** GitHub's 2-vCPU runner (private repositories), as 1 core × 2 threads or 2 cores. */
  github2Smt: { packages: 1, cores: 1, threads: 2, enumeration: 'adjacent' },
  github2Cores: { packages: 1, cores: 2, threads: 1, enumeration: 'adjacent' },
  /** An 8-vCPU larger runner. */
  larger8: { packages: 1, cores: 4, threads: 2, enumeration: 'adjacent' },
  /** An arm64 runner: 4 cores without SMT, no cache entries in sysfs. */
  arm64: { packages: 1, cores: 4, threads: 1, enumeration: 'adjacent', caches: false },
  /** A 2-socket server: 2 packages × 8 cores × 2 threads, numbered as Intel's are. */
  twoSocket: { packages: 2, cores: 8, threads: 2, enumeration: 'split' },
} as const satisfies Record<string, Shape>;
