import { spawnSync } from 'node:child_process';
import { allowedCpus, formatCpuList } from './cpus.js';

/**
 * Pins every thread of the harness process to `cpus` (so timing, pipes and the event loop
 * never run on a measured CPU) and returns a function that restores the previous mask.
 * Returns null when `taskset` is unavailable; the caller then reports the harness as unpinned.
 */
export function pinHarness(cpus: readonly number[], pid = process.pid): (() => void) | null {
  const previous = formatCpuList(allowedCpus(`/proc/${pid}/status`));
  const pin = (list: string): boolean =>
    spawnSync('taskset', ['-a', '-p', '-c', list, String(pid)], { stdio: 'ignore' }).status === 0;
  if (!pin(formatCpuList(cpus))) return null;
  return () => void pin(previous);
}
