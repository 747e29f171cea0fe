import { accessSync, constants, existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { canSudo, findMount, ownCgroup } from '../isolation/cgroup-fs.js';
import { sweepV2Leftovers } from '../isolation/cgroup-v2.js';
import { planOnTopology } from '../isolation/cpu-plan.js';
import { allowedCpus } from '../isolation/cpus.js';
import { chooseIsolation } from '../isolation/choose.js';
import { readTopology } from '../isolation/topology.js';
import type { CpuPlanRecord, IsolationReport } from '../contracts/isolation.js';
import { buildFingerprint } from '../runner/fingerprint.js';
import type { MachineFingerprint } from '../contracts/machine.js';
import { cgroupVersion, probeFingerprint } from '../runner/fingerprint-probe.js';
import { buildTimer } from '../runner/timer/build.js';

/** Everything `duetkit doctor` found on this machine: plain data, JSON as it stands. */
export interface DoctorProbe {
  schemaVersion: 1;
  kernel: string;
  root: boolean;
  /** `sudo -n true` succeeded (null when running as root: not needed, not tried). */
  sudo: boolean | null;
  cgroup: {
    version: MachineFingerprint['cgroup'];
    /** v1: the cpuset hierarchy and whether this process's cpuset group is writable. */
    v1: { cpuset: string | null; cpu: string | null; writable: boolean } | null;
    /** v2: the mount, the root's controllers and which of them it delegates. */
    v2: {
      mount: string;
      controllers: string[];
      subtreeControl: string[];
      /** A group under the root offers `cpuset.cpus.partition`; null when none shows it. */
      partitionFile: boolean | null;
    } | null;
  };
  cpus: number[];
  /** `1 package × 2 cores × 2 threads`; null when sysfs could not be read. */
  layout: string | null;
  /** The CPU plans a duet (2 slots) and a run taking turns (1 slot) would make. */
  plans: { duet: CpuPlanRecord | null; single: CpuPlanRecord | null };
  perf: {
    /** `perf` found on PATH. */
    path: string | null;
    /** /proc/sys/kernel/perf_event_paranoid. */
    paranoid: number | null;
    /** A hardware PMU under /sys/bus/event_source/devices (`cpu`, `cpu_core`, `armv8_pmuv3…`). */
    hardwareCounters: boolean;
  };
  timer: { path: string | null; reason: string | null };
  clocksource: { current: string | null; available: string[] };
  /** What a duet's `isolation: auto` set up here (made, then removed at once), or why not. */
  isolation: IsolationReport | { error: string };
  fingerprint: MachineFingerprint;
}

export interface ProbeOptions {
  env: NodeJS.ProcessEnv;
  /** Default `/sys`. */
  sysRoot?: string;
}

/**
 * Looks at the machine the way a run would: the same mounts, topology, timer build and
 * isolation choice (a duet's cgroups are really made, and removed before returning).
 */
export async function probeDoctor(options: ProbeOptions): Promise<DoctorProbe> {
  const sys = options.sysRoot ?? '/sys';
  const root = process.getuid?.() === 0;
  // As a run does: a killed run's partition would hide its CPUs from the plan.
  await sweepV2Leftovers();
  const cpus = allowedCpus();
  const topology = readTopology(cpus, sys);
  const plan = (slots: number): CpuPlanRecord | null =>
    planOnTopology(cpus, slots, topology)?.record ?? null;
  const fingerprintProbe = await probeFingerprint(options.env, { sys });
  const timer = await buildTimer(options.env);
  let isolation: DoctorProbe['isolation'];
  try {
    const chosen = await chooseIsolation('auto', { slotCount: 2, cpus, sysRoot: sys });
    isolation = structuredClone(chosen.report);
    await chosen.dispose();
  } catch (error) {
    isolation = { error: (error as Error).message };
  }
  return {
    schemaVersion: 1,
    kernel: fingerprintProbe.kernel,
    root,
    sudo: root ? null : await canSudo(),
    cgroup: {
      version: await cgroupVersion(),
      v1: await probeV1(),
      v2: await probeV2(),
    },
    cpus,
    layout: fingerprintProbe.layout,
    plans: { duet: plan(2), single: plan(1) },
    perf: {
      path: onPath('perf', options.env.PATH ?? ''),
      paranoid: numberIn('/proc/sys/kernel/perf_event_paranoid'),
      hardwareCounters: hardwarePmu(path.join(sys, 'bus/event_source/devices')),
    },
    timer: { path: timer.path, reason: timer.path === null ? timer.reason : null },
    clocksource: {
      current: text(path.join(sys, 'devices/system/clocksource/clocksource0/current_clocksource')),
      available: (
        text(path.join(sys, 'devices/system/clocksource/clocksource0/available_clocksource')) ?? ''
      )
        .split(/\s+/)
        .filter(Boolean),
    },
    isolation,
    fingerprint: buildFingerprint(fingerprintProbe, 'kind' in isolation ? isolation.kind : null),
  };
}

async function probeV1(): Promise<DoctorProbe['cgroup']['v1']> {
  const cpuset = await findMount('cgroup', 'cpuset');
  const cpu = await findMount('cgroup', 'cpu');
  if (cpuset === null && cpu === null) return null;
  let writable = false;
  if (cpuset !== null) {
    try {
      accessSync(path.join(cpuset, (await ownCgroup('cpuset')) ?? '/'), constants.W_OK);
      writable = true;
    } catch {
      writable = false;
    }
  }
  return { cpuset, cpu, writable };
}

async function probeV2(): Promise<DoctorProbe['cgroup']['v2']> {
  const mount = await findMount('cgroup2');
  if (mount === null) return null;
  const words = (file: string): string[] =>
    (text(path.join(mount, file)) ?? '').split(/\s+/).filter(Boolean);
  let partitionFile: boolean | null = null;
  try {
    const children = readdirSync(mount, { withFileTypes: true }).filter((e) => e.isDirectory());
    if (children.some((c) => existsSync(path.join(mount, c.name, 'cpuset.cpus.partition')))) {
      partitionFile = true;
    }
  } catch {
    partitionFile = null;
  }
  return {
    mount,
    controllers: words('cgroup.controllers'),
    subtreeControl: words('cgroup.subtree_control'),
    partitionFile,
  };
}

function onPath(command: string, searchPath: string): string | null {
  for (const dir of searchPath.split(':').filter(Boolean)) {
    const file = path.join(dir, command);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not in this directory
    }
  }
  return null;
}

function hardwarePmu(dir: string): boolean {
  try {
    return readdirSync(dir).some((name) =>
      /^(cpu|cpu_core|cpu_atom|armv8_pmuv3.*|armv[0-9].*)$/.test(name),
    );
  } catch {
    return false;
  }
}

function text(file: string): string | null {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
}

function numberIn(file: string): number | null {
  const value = Number(text(file) ?? 'x');
  return Number.isInteger(value) ? value : null;
}
