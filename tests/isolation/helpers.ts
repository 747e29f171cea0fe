import { accessSync, constants, existsSync, readFileSync } from 'node:fs';

export const CPUSET_V1 = '/sys/fs/cgroup/cpuset';

/**
 * Whether this machine offers a writable cgroup v1 cpuset hierarchy (root, mounted). Tests
 * use it to decide what they must see, never to skip: where it exists, cgroups must be used.
 */
export function cpusetV1Available(): boolean {
  if (process.getuid?.() !== 0 || !existsSync(`${CPUSET_V1}/cpuset.cpus`)) return false;
  try {
    accessSync(CPUSET_V1, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** CPUs a process may run on, from /proc. */
export function affinityOf(pid: number): string {
  return /Cpus_allowed_list:\s*(\S+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]!;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function waitUntil(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
