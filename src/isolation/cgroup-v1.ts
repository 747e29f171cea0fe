import { readdir } from 'node:fs/promises';
import path from 'node:path';
import {
  directCgroupFs,
  emptyAndRemove,
  findMount,
  groupName,
  ownCgroup,
  type CgroupFs,
} from './cgroup-fs.js';
import { createGroup, type CgroupOptions } from './cgroup-group.js';
import type { Isolation } from './types.js';

export type CgroupV1Options = CgroupOptions;

/**
 * cgroup v1 cpuset (as on many VMs and older distributions): a group per run under this
 * process's own cpuset cgroup, a child per slot with its `cpuset.cpus`. v1 needs
 * `cpuset.mems` set before any task may join, so it is copied from the parent.
 * Throws with the reason when the hierarchy is absent or not writable.
 */
export async function createCgroupV1(options: CgroupV1Options): Promise<Isolation> {
  const fs = options.fs ?? directCgroupFs();
  const mount = options.mount ?? (await findMount('cgroup', 'cpuset'));
  if (mount === null) throw new Error('no cgroup v1 cpuset hierarchy is mounted');
  const parent = path.join(mount, (await ownCgroup('cpuset')) ?? '/');
  await sweepStaleGroups(fs, parent);
  const mems = (await fs.read(path.join(parent, 'cpuset.mems'))).trim();
  return createGroup({
    kind: 'cgroup-v1',
    fs,
    dir: path.join(parent, groupName()),
    slots: options.slots,
    harness: options.harness,
    requested: options.requested,
    warnings: options.warnings,
    async configure(dir, cpus) {
      await fs.write(path.join(dir, 'cpuset.cpus'), cpus.join(','));
      await fs.write(path.join(dir, 'cpuset.mems'), mems);
    },
  });
}

/**
 * Removes groups left by duetkit runs whose process no longer exists (killed with SIGKILL,
 * or a machine crash), so leftovers never accumulate.
 */
export async function sweepStaleGroups(fs: CgroupFs, parent: string): Promise<string[]> {
  const entries = await readdir(parent).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const entry of entries) {
    const match = /^duetkit-(\d+)-/.exec(entry);
    if (match === null || isAlive(Number(match[1]))) continue;
    const dir = path.join(parent, entry);
    const slots = (await readdir(dir).catch(() => [] as string[])).filter((e) =>
      e.startsWith('slot-'),
    );
    for (const slot of slots) await emptyAndRemove(fs, path.join(dir, slot));
    await emptyAndRemove(fs, dir);
    removed.push(dir);
  }
  return removed;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
