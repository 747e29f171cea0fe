import path from 'node:path';
import {
  canSudo,
  directCgroupFs,
  findMount,
  groupName,
  sudoCgroupFs,
  type CgroupFs,
} from './cgroup-fs.js';
import { createGroup, type CgroupOptions } from './cgroup-group.js';
import { sweepStaleGroups } from './cgroup-v1.js';
import type { Isolation } from './types.js';

export type CgroupV2Options = CgroupOptions;

/**
 * cgroup v2 cpuset (GitHub's Ubuntu runners, systemd machines). The group is made directly
 * under the root of the hierarchy: the root is the one cgroup exempt from the "no internal
 * processes" rule, and moving a process between two cgroups needs write access to their
 * common ancestor, which is the root anyway. That takes root, or `sudo -n` (passwordless on
 * GitHub's runners); without either this backend is unavailable.
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
  await sweepStaleGroups(fs, mount);
  await enableCpuset(fs, mount);
  const warnings = [...options.warnings];
  if (fs.viaSudo) warnings.push('cgroups were created through sudo -n');
  return createGroup({
    kind: 'cgroup-v2',
    fs,
    dir: path.join(mount, groupName()),
    slots: options.slots,
    harness: options.harness,
    requested: options.requested,
    warnings,
    configure: (dir, cpus) => fs.write(path.join(dir, 'cpuset.cpus'), cpus.join(',')),
    // Children get a cpuset.cpus file only once the parent delegates the controller.
    prepareGroup: (dir) => enableCpuset(fs, dir),
  });
}

async function enableCpuset(fs: CgroupFs, dir: string): Promise<void> {
  const file = path.join(dir, 'cgroup.subtree_control');
  const enabled = await fs.read(file).catch(() => '');
  if (!enabled.split(/\s+/).includes('cpuset')) await fs.write(file, '+cpuset');
}
