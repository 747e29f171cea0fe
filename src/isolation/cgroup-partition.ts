import path from 'node:path';
import type { CgroupFs } from './cgroup-fs.js';

const FILE = 'cpuset.cpus.partition';

/**
 * Makes a cgroup v2 group a partition root (`cpuset.cpus.partition` = `root`): its CPUs leave
 * every other group's effective set, so no process outside the run is scheduled on them while
 * it lasts — the measured CPUs become exclusive instead of merely weighted. Returns null when
 * the kernel took it, else the reason (the caller keeps the weight and reports the reason).
 *
 * `root` rather than `isolated`: an isolated partition also turns off load balancing inside
 * it, so a slot of several CPUs would keep all its threads on the CPU each started on.
 *
 * The kernel refuses in two ways: the write fails (EINVAL, older kernels), or it is accepted
 * and the file then reads `root invalid (reason)` — e.g. when the CPUs are all the parent has,
 * or another group holds them exclusively. Either way the group is put back to `member`.
 */
export async function makePartition(fs: CgroupFs, dir: string): Promise<string | null> {
  const file = path.join(dir, FILE);
  const before = await fs.read(file).catch(() => null);
  if (before === null) return `the kernel offers no ${FILE} (Linux 5.11 or later)`;
  try {
    await fs.write(file, 'root');
  } catch (error) {
    return `the kernel refused ${FILE} = root: ${(error as Error).message}`;
  }
  const state = (await fs.read(file).catch(() => '')).trim();
  if (state === 'root') return null;
  await releasePartition(fs, dir);
  return `the kernel made ${FILE} ${JSON.stringify(state)}`;
}

/**
 * Gives a group's CPUs back to the rest of the machine (`member`), before it is removed (a
 * removed partition root gives them back too; this keeps the order explicit). Does nothing
 * where the group is no partition or has no such file.
 */
export async function releasePartition(fs: CgroupFs, dir: string): Promise<void> {
  const file = path.join(dir, FILE);
  const state = await fs.read(file).catch(() => null);
  if (state === null || state.trim() === 'member') return;
  await fs.write(file, 'member').catch(() => undefined);
}
