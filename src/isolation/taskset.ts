import { execFile, spawnSync } from 'node:child_process';
import { formatCpuList } from './cpus.js';
import type { Isolation } from './types.js';
import type { IsolationRequest } from '../contracts/isolation.js';

/** True when the util-linux `taskset` command can be run. */
export function hasTaskset(): boolean {
  return spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * CPU affinity only: each process starts under `taskset -c CPUS`, and its children inherit
 * the mask. Weaker than a cpuset (a program may widen its own mask, and nothing stops other
 * processes from using the CPUs) but needs no privileges.
 */
export function createTaskset(options: {
  slots: number[][];
  harness: number[] | null;
  requested: IsolationRequest;
  warnings: string[];
}): Isolation {
  const lists = options.slots.map(formatCpuList);
  return {
    report: {
      requested: options.requested,
      kind: 'taskset',
      slots: lists,
      harnessCpus: options.harness === null ? null : formatCpuList(options.harness),
      cgroup: null,
      warnings: options.warnings,
    },
    place: (slot) => ({
      prefix: ['taskset', '-c', lists[slot]!],
      attach: async () => undefined,
      move: (pid) => setAffinity(pid, lists[slot]!),
    }),
    dispose: async () => undefined,
  };
}

/** Sets the affinity of every thread of a running process. */
function setAffinity(pid: number, list: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('taskset', ['-a', '-p', '-c', list, String(pid)], (error) =>
      error === null
        ? resolve()
        : reject(new Error(`taskset -a -p -c ${list} ${pid}: ${error.message}`)),
    );
  });
}
