import { readdir } from 'node:fs/promises';
import path from 'node:path';
import {
  directCgroupFs,
  emptyAndRemove,
  findMount,
  groupName,
  ownerEnded,
  ownCgroup,
  type CgroupFs,
} from './cgroup-fs.js';
import {
  createGroup,
  withWeightOrWithout,
  type CgroupOptions,
  type GroupTree,
} from './cgroup-group.js';
import type { Isolation } from './types.js';

export type CgroupV1Options = CgroupOptions;

/** The largest `cpu.shares` of cgroup v1 (the kernel's MAX_SHARES, 2^18); 1024 is normal. */
export const V1_MAX_SHARES = 262144;

/**
 * cgroup v1 cpuset (as on many VMs and older distributions): a group per run under this
 * process's own cpuset cgroup, a child per slot with its `cpuset.cpus`. v1 needs
 * `cpuset.mems` set before any task may join, so it is copied from the parent. The same
 * group is made in the `cpu` hierarchy, each slot with the largest `cpu.shares`, so other
 * processes on the measured CPUs get 1/257 of the time while an iteration runs (without a
 * writable cpu hierarchy: a warning). Throws with the reason when the cpuset hierarchy is
 * absent or not writable.
 */
export async function createCgroupV1(options: CgroupV1Options): Promise<Isolation> {
  const fs = options.fs ?? directCgroupFs();
  const mount = options.mount ?? (await findMount('cgroup', 'cpuset'));
  if (mount === null) throw new Error('no cgroup v1 cpuset hierarchy is mounted');
  const parent = path.join(mount, (await ownCgroup('cpuset')) ?? '/');
  await sweepStaleGroups(fs, parent);
  const mems = (await fs.read(path.join(parent, 'cpuset.mems'))).trim();
  const name = groupName();
  const cpuset: GroupTree = {
    dir: path.join(parent, name),
    async configure(dir, cpus) {
      await fs.write(path.join(dir, 'cpuset.cpus'), cpus.join(','));
      await fs.write(path.join(dir, 'cpuset.mems'), mems);
    },
  };
  const warnings = [...options.warnings];
  const cpu = options.cpuWeight === false ? null : await cpuTree(fs, name, options, warnings);
  const create = (weighted: boolean) =>
    createGroup({
      kind: 'cgroup-v1',
      fs,
      trees: weighted && cpu !== null ? [cpuset, cpu] : [cpuset],
      slots: options.slots,
      harness: options.harness,
      requested: options.requested,
      warnings,
      cpuWeight: weighted ? `cpu.shares=${V1_MAX_SHARES}` : null,
    });
  return cpu === null ? create(false) : withWeightOrWithout(create, warnings);
}

/** The run's group in the v1 `cpu` hierarchy, or null (with a warning) when there is none. */
async function cpuTree(
  fs: CgroupFs,
  name: string,
  options: CgroupV1Options,
  warnings: string[],
): Promise<GroupTree | null> {
  const mount = options.cpuMount ?? (await findMount('cgroup', 'cpu'));
  const parent = mount === null ? null : path.join(mount, (await ownCgroup('cpu')) ?? '/');
  const usable =
    parent !== null &&
    (await fs.read(path.join(parent, 'cpu.shares')).then(
      () => true,
      () => false,
    ));
  if (!usable) {
    warnings.push(
      'no cgroup v1 cpu hierarchy: other processes on the measured CPUs get an equal share of them',
    );
    return null;
  }
  await sweepStaleGroups(fs, parent);
  return {
    dir: path.join(parent, name),
    configure: (dir) => fs.write(path.join(dir, 'cpu.shares'), String(V1_MAX_SHARES)),
    configureHarness: (dir) => fs.write(path.join(dir, 'cpu.shares'), String(V1_MAX_SHARES)),
  };
}

/**
 * Removes groups left by duetkit runs whose process no longer exists (killed with SIGKILL,
 * or a machine crash), so leftovers never accumulate; `release` first undoes what such a
 * group claimed (v2: its partition).
 */
export async function sweepStaleGroups(
  fs: CgroupFs,
  parent: string,
  release?: (dir: string) => Promise<void>,
): Promise<string[]> {
  const removed: string[] = [];
  for (const dir of await staleGroups(parent)) {
    await release?.(dir);
    // Its child groups (the slots, and the harness's when it joined one) go first.
    const children = (await readdir(dir, { withFileTypes: true }).catch(() => [])).filter((e) =>
      e.isDirectory(),
    );
    for (const child of children) await emptyAndRemove(fs, path.join(dir, child.name));
    await emptyAndRemove(fs, dir);
    removed.push(dir);
  }
  return removed;
}

/** Groups under `parent` left by duetkit runs whose process no longer exists. Reads only. */
export async function staleGroups(parent: string): Promise<string[]> {
  const entries = await readdir(parent).catch(() => [] as string[]);
  return entries.filter((entry) => ownerEnded(entry)).map((entry) => path.join(parent, entry));
}
