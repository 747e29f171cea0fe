import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findMount } from '../isolation/cgroup-fs.js';
import { allowedCpus } from '../isolation/cpus.js';
import { coresOf, describeLayout, readTopology } from '../isolation/topology.js';
import type { CgroupVersion } from '../contracts/machine.js';
import type { FingerprintProbe } from './fingerprint.js';

export interface ProbeRoots {
  /** Default `/proc`. */
  proc?: string;
  /** Default `/sys`. */
  sys?: string;
}

/** Reads what the fingerprint is made of; every unreadable file becomes null. */
export async function probeFingerprint(
  env: NodeJS.ProcessEnv,
  roots: ProbeRoots = {},
): Promise<FingerprintProbe> {
  const proc = roots.proc ?? '/proc';
  const sys = roots.sys ?? '/sys';
  let cpus: number[];
  try {
    cpus = allowedCpus(path.join(proc, 'self/status'));
  } catch {
    cpus = os.cpus().map((_, i) => i);
  }
  const topology = readTopology(cpus, sys);
  return {
    cpuinfo: readOrNull(path.join(proc, 'cpuinfo')),
    kernel: os.release(),
    arch: os.arch(),
    vcpus: cpus.length,
    layout: topology === null ? null : describeLayout(coresOf(topology)),
    cgroup: await cgroupVersion(path.join(proc, 'self/mountinfo')),
    hypervisorType: readOrNull(path.join(sys, 'hypervisor/type')),
    dmiVendor: readOrNull(path.join(sys, 'class/dmi/id/sys_vendor')),
    dmiProduct: readOrNull(path.join(sys, 'class/dmi/id/product_name')),
    env: {
      ImageOS: env.ImageOS,
      ImageVersion: env.ImageVersion,
      RUNNER_OS: env.RUNNER_OS,
      RUNNER_ARCH: env.RUNNER_ARCH,
    },
  };
}

/**
 * Which cgroup version holds the CPU controllers, from mountinfo: `v1` when a v1 cpuset or cpu
 * hierarchy is mounted (also beside systemd's empty `unified` cgroup2 mount), else `v2` when
 * a cgroup2 filesystem is, else `none`.
 */
export async function cgroupVersion(mountinfo = '/proc/self/mountinfo'): Promise<CgroupVersion> {
  for (const controller of ['cpuset', 'cpu']) {
    if ((await findMount('cgroup', controller, mountinfo)) !== null) return 'v1';
  }
  return (await findMount('cgroup2', undefined, mountinfo)) !== null ? 'v2' : 'none';
}

function readOrNull(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}
