import path from 'node:path';
import {
  ownCgroup,
  canSudo,
  directCgroupFs,
  findMount,
  groupName,
  sudoCgroupFs,
  type CgroupFs,
} from './cgroup-fs.js';
import { createGroup, withWeightOrWithout, type CgroupOptions } from './cgroup-group.js';
import { makePartition, releasePartition } from './cgroup-partition.js';
import { staleGroups, sweepStaleGroups } from './cgroup-v1.js';
import type { Isolation } from './types.js';

export type CgroupV2Options = CgroupOptions;

/**
 * cgroup v2 cpuset (GitHub's Ubuntu runners, systemd machines). The group is made directly
 * under the root of the hierarchy: the root is the one cgroup exempt from the "no internal
 * processes" rule, and moving a process between two cgroups needs write access to their
 * common ancestor, which is the root anyway. That takes root, or `sudo -n` (passwordless on
 * GitHub's runners); without either this backend is unavailable. Where the kernel allows it
 * and the harness has CPUs of its own, the group is made a partition root for the run
 * (cgroup-partition.ts), so the measured CPUs are exclusive; else the weight alone keeps
 * other processes back, and the report says why.
 */
export async function createCgroupV2(options: CgroupV2Options): Promise<Isolation> {
  const mount = options.mount ?? (await findMount('cgroup2'));
  if (mount === null) throw new Error('no cgroup2 filesystem is mounted');
  let fs = options.fs;
  if (fs === undefined) {
    if (process.getuid?.() === 0) fs = directCgroupFs();
    else if (await canSudo()) fs = sudoCgroupFs();
    else throw new Error('cgroup v2 needs root or passwordless sudo (sudo -n) to create cgroups');
  }
  const controllers = await fs.read(path.join(mount, 'cgroup.controllers')).catch(() => '');
  if (!controllers.split(/\s+/).includes('cpuset')) {
    throw new Error(`the cgroup2 hierarchy at ${mount} offers no cpuset controller`);
  }
  await sweepStaleGroups(fs, mount, (dir) => releasePartition(fs, dir));
  await enable(fs, mount, 'cpuset');
  const warnings = [...options.warnings];
  if (fs.viaSudo) warnings.push('cgroups were created through sudo -n');
  const dir = path.join(mount, groupName());
  // This process's own group, where it returns after the run (it may join the run's group).
  const home = path.join(mount, (await ownCgroup(null)) ?? '/');
  // Exclusive CPUs need CPUs outside them for everything else, the harness included.
  const exclusive = options.exclusive !== false && options.harness !== null;
  // Per attempt: null when the partition was taken, else why not.
  let partitionReason: string | null = null;
  const create = (weighted: boolean) =>
    createGroup({
      kind: 'cgroup-v2',
      fs,
      trees: [
        {
          dir,
          async configure(slotDir, cpus) {
            await fs.write(path.join(slotDir, 'cpuset.cpus'), cpus.join(','));
            if (weighted) await fs.write(path.join(slotDir, 'cpu.weight'), String(V2_MAX_WEIGHT));
          },
          harnessHome: home,
          // The harness shares the slots' CPUs (there is no spare one), with their weight.
          ...(weighted
            ? {
                async configureHarness(harnessDir: string) {
                  const cpus = options.slots.flat().join(',');
                  await fs.write(path.join(harnessDir, 'cpuset.cpus'), cpus);
                  await fs.write(path.join(harnessDir, 'cpu.weight'), String(V2_MAX_WEIGHT));
                },
              }
            : {}),
          // Children get cpuset.cpus (and cpu.weight) files only once the parent delegates.
          async prepareGroup(groupDir) {
            await enable(fs, groupDir, 'cpuset');
            if (weighted) await enable(fs, groupDir, 'cpu');
            if (exclusive) partitionReason = await makePartition(fs, groupDir);
          },
          releaseGroup: (groupDir) => releasePartition(fs, groupDir),
        },
      ],
      slots: options.slots,
      harness: options.harness,
      requested: options.requested,
      warnings,
      cpuWeight: weighted ? `cpu.weight=${V2_MAX_WEIGHT}` : null,
    });
  const withPartition = async (isolation: Isolation): Promise<Isolation> => {
    if (!exclusive) return isolation;
    if (partitionReason === null) isolation.report.partition = 'root';
    else {
      isolation.report.warnings.push(
        `the measured CPUs are not exclusive (${partitionReason}): other processes may still run on them${isolation.report.cpuWeight === undefined ? '' : ', at a lower CPU weight'}`,
      );
    }
    return isolation;
  };
  if (options.cpuWeight === false) return withPartition(await create(false));
  // The group itself competes with the root's other children (system.slice, user.slice…) by
  // its cpu.weight, so the weight is written on the group and on each slot.
  const reason = !controllers.split(/\s+/).includes('cpu')
    ? `the cgroup2 hierarchy at ${mount} offers no cpu controller`
    : await enable(fs, mount, 'cpu').then(
        () => null,
        (error: Error) => error.message,
      );
  if (reason === null) return withPartition(await withWeightOrWithout(create, warnings));
  warnings.push(`the CPU weight could not be raised: ${reason}`);
  return withPartition(await create(false));
}

/**
 * Removes the groups runs killed with SIGKILL left under the cgroup v2 root, giving their
 * partitions back — before anything reads the CPUs this process may use: a leftover partition
 * still holds its CPUs, so every process outside it (this one too) is kept off them, and a CPU
 * plan made before the sweep would leave them out (in the runner-like VM the run after a killed
 * one measured on CPUs 0 and 2 of 0-3, without a partition). Reads only where nothing is stale;
 * else sweeps as root or through `sudo -n`. Never throws: createCgroupV2 sweeps again, and
 * says what fails. Returns the groups removed.
 */
export async function sweepV2Leftovers(
  options: { mount?: string; fs?: CgroupFs } = {},
): Promise<string[]> {
  try {
    const mount = options.mount ?? (await findMount('cgroup2'));
    if (mount === null || (await staleGroups(mount)).length === 0) return [];
    const fs =
      options.fs ??
      (process.getuid?.() === 0 ? directCgroupFs() : (await canSudo()) ? sudoCgroupFs() : null);
    if (fs === null) return [];
    return await sweepStaleGroups(fs, mount, (dir) => releasePartition(fs, dir));
  } catch {
    return [];
  }
}

/** The largest `cpu.weight` of cgroup v2; 100 is normal. */
export const V2_MAX_WEIGHT = 10000;

async function enable(fs: CgroupFs, dir: string, controller: 'cpuset' | 'cpu'): Promise<void> {
  const file = path.join(dir, 'cgroup.subtree_control');
  const enabled = await fs.read(file).catch(() => '');
  if (!enabled.split(/\s+/).includes(controller)) await fs.write(file, `+${controller}`);
}
