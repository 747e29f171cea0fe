/**
 * duetkit on a machine shaped like GitHub's hosted Linux runners: systemd, cgroup v2, the job
 * as `runner` with passwordless sudo, 4 vCPUs as 2 cores × 2 SMT threads. This machine is none
 * of that (cgroup v1, root, no systemd, no SMT), so it boots one (.ci/setup-vm.sh builds it;
 * tests/vm/boot.ts boots it under QEMU's TCG) — once for the whole file, to keep CI short —
 * and runs tests/vm/guest/lab.ts in it as `runner`: the guest's facts, `duetkit doctor`, the
 * cgroup v2 backend for real (with the CPU weight, with a partition, without either), a run
 * killed with SIGKILL and the next run's sweep, and the quickstart. Timing in the guest is
 * emulated (about 6× slower than the host): the tests assert behaviour, never speed.
 *
 * Cost, measured on this project's 2-CPU VM (2026-11-26, shared with other jobs): this file,
 * warm (one boot), 112–129 s at load 3–10 (boot to the lab 18–33 s; doctor 17 s, the v2
 * backend 20 s, the killed run 13–16 s, the quickstart 24–30 s); the cold set-up in
 * DEVELOPERS.md. TCG's 4 vCPUs share the host's 2 CPUs with everything else: the cost follows
 * the host's load.
 */
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { chmod, copyFile, cp, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildTimer } from '../../src/runner/timer/build.js';
import { bootVm, makeShare } from './boot.js';

const ROOT = process.cwd();

/**
 * The quickstart, short: four rounds after one warm-up instead of stopping on precision (the
 * guest is ~6× slower than the host, and each `node bench.js` starts for a second or two), and
 * a bootstrap of 1,000 resamples, not 10,000. Verdicts are not the point here, what the run
 * sets up and leaves behind is.
 */
function shortQuickstart(): string {
  const text = readFileSync(path.join(ROOT, 'scenarios/quickstart.yml'), 'utf8');
  const short = text
    .replace(/^stopping:\n(?: {2}.*\n)+/m, 'iterations: 4\n')
    .replace(/^budget: .*$/m, 'budget: 120s')
    .replace(/^ {2}threshold: .*$/m, '  threshold: 0.02\n  resamples: 1000')
    .replace(/^warmup: .*$/m, 'warmup: 1')
    .replace(/^timeout: .*$/m, 'timeout: 120s')
    .replace(/^isolation: .*$/m, 'isolation: cpuset');
  if (
    !short.includes('iterations: 4') ||
    short.includes('stopping:') ||
    !short.includes('resamples: 1000') ||
    !short.includes('isolation: cpuset')
  ) {
    throw new Error('scenarios/quickstart.yml changed shape: update shortQuickstart()');
  }
  return short;
}

/**
 * A duet that only waits: the run that the lab kills with SIGKILL once its sides are in their
 * groups (no Node program to start, which costs seconds under TCG).
 */
const SLEEP_DUET = [
  'name: vm-sleep',
  'mode: duet',
  'versions:',
  '  - { name: base, path: ../examples/quickstart/base }',
  '  - { name: head, path: ../examples/quickstart/head }',
  'workload:',
  '  command: sleep 600',
  'iterations: 5',
  'timeout: 20m',
  'isolation: cpuset',
  '',
].join('\n');

/**
 * The quickstart's program with a tenth of its data (both versions: head still makes 6% more
 * passes): under TCG each run is a Node start plus the work, ~6× slower than on the host.
 */
function smallerBench(version: 'base' | 'head'): string {
  const text = readFileSync(path.join(ROOT, `examples/quickstart/${version}/bench.js`), 'utf8');
  const small = text.replace('makeData(200_000)', 'makeData(20_000)');
  if (small === text) throw new Error(`examples/quickstart/${version}/bench.js changed shape`);
  return small;
}

const LAB_SH = `#!/bin/sh
# Run as root by the guest's duetkit-lab.service, its output on the serial console.
set -u
echo "lab: started $(cut -d' ' -f1 /proc/uptime) s after boot"
journalctl -b -o short-monotonic --no-pager > /host/out/journal.txt 2>&1
# Node, duetkit and the timer from the read-only share (tag hostro) with the page cache on:
# through the other mount (no cache, so that out/ is on the host when the guest stops) each
# start would read them through 9p again.
mkdir -p /opt/host
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000,cache=loose,ro hostro /opt/host || {
  echo "lab: the read-only share (tag hostro) could not be mounted"; exit 1; }
echo "lab: mounted $(cut -d' ' -f1 /proc/uptime) s after boot"
# NODE_COMPILE_CACHE: V8's code cache, so that each later node process (every duetkit
# command) skips compiling the bundle again under emulation.
runuser -u runner -- env HOME=/home/runner DUETKIT_CACHE=/opt/host/cache NODE_COMPILE_CACHE=/tmp/node-compile-cache \\
  PATH=/opt/host/node/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \\
  node /opt/host/lab.mjs /host/out /opt/host/duetkit
echo "lab: finished ($?) $(cut -d' ' -f1 /proc/uptime) s after boot"
`;

interface Step<T> {
  ok: boolean;
  value: T;
  error?: string;
  seconds: number;
}
// The guest's results are JSON of the shapes lab.ts writes; read loosely here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;
let results: Record<string, Step<Loose>> = {};
let consoleText = '';
let bootSeconds = 0;

function stepOf(name: string): Loose {
  const step = results[name];
  if (step === undefined)
    throw new Error(`the guest never got to "${name}":\n${consoleText.slice(-3000)}`);
  if (!step.ok) throw new Error(`"${name}" failed in the guest:\n${step.error}`);
  return step.value;
}

let share = '';
beforeAll(async () => {
  const bundled = await build({
    entryPoints: [path.join(ROOT, 'tests/vm/guest/lab.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'warning',
  });
  share = await makeShare({
    labScript: LAB_SH,
    files: {
      'lab.mjs': bundled.outputFiles[0]!.text,
      'duetkit/scenarios/vm-quickstart.yml': shortQuickstart(),
      'duetkit/scenarios/vm-sleep.yml': SLEEP_DUET,
      'duetkit/examples/quickstart/base/bench.js': smallerBench('base'),
      'duetkit/examples/quickstart/head/bench.js': smallerBench('head'),
    },
  });
  // The command timer, built here (the guest has no compiler; GitHub's runners have one):
  // statically linked, in the host's cache, and copied to where the guest's runs look for it
  // ($DUETKIT_CACHE: the directory keyed by the timer's source, as buildTimer makes it).
  const timer = await buildTimer(process.env);
  if (timer.path === null) throw new Error(timer.reason);
  const keyed = path.join(share, 'cache', path.basename(path.dirname(timer.path)));
  await mkdir(keyed, { recursive: true });
  await copyFile(timer.path, path.join(keyed, 'duetkit-timer'));
  await chmod(path.join(keyed, 'duetkit-timer'), 0o755);
  const boot = await bootVm({ share, timeoutMs: 10 * 60_000 });
  consoleText = boot.console;
  bootSeconds = boot.seconds;
  // For a look afterwards (git-ignored): the console, the results, the guest's journal.
  const last = path.join(ROOT, '.tools/vm-last');
  await rm(last, { recursive: true, force: true });
  await cp(path.join(share, 'out'), last, { recursive: true });
  await writeFile(path.join(last, 'console.log'), consoleText);
  try {
    results = JSON.parse(readFileSync(path.join(share, 'out/results.json'), 'utf8'));
  } catch {
    throw new Error(
      `the guest wrote no results; its console ended with:\n${consoleText.slice(-3000)}`,
    );
  }
}, 11 * 60_000);

afterAll(async () => {
  if (share !== '') await rm(share, { recursive: true, force: true });
});

describe('the runner-like VM', () => {
  it('boots and powers off by itself', () => {
    expect(consoleText).toMatch(/lab: finished \(0\)/);
    expect(bootSeconds).toBeGreaterThan(0);
  });

  it('is what GitHub runners are: systemd, cgroup v2, runner with sudo -n, 2 cores × 2 threads', () => {
    const guest = stepOf('guest');
    expect(guest.user).toBe('runner');
    expect(guest.pid1).toBe('systemd');
    expect(guest.cgroupMount).toBe('cgroup2fs');
    expect(guest.controllers.split(' ')).toEqual(expect.arrayContaining(['cpuset', 'cpu']));
    expect(guest.ownCgroup).toBe('0::/system.slice/duetkit-lab.service');
    expect(guest.sudo).toBe(0);
    expect(guest.cpus).toEqual([0, 1, 2, 3]);
    expect(guest.siblings).toEqual(['0-1', '0-1', '2-3', '2-3']);
    expect(guest.plan).toMatchObject({
      layout: '1 package × 2 cores × 2 threads',
      slots: ['1', '3'],
      harness: '0,2',
      siblingsInUse: true,
    });
  });
});

describe('duetkit doctor in the guest', () => {
  it('finds cgroup v2, sudo, the CPU plan on different cores, and a partition for the duet', () => {
    const doctor = stepOf('doctor');
    expect(doctor.status).toBe(0);
    const { probe, findings } = doctor.json;
    expect(probe.root).toBe(false);
    expect(probe.sudo).toBe(true);
    expect(probe.cgroup.version).toBe('v2');
    expect(probe.cgroup.v2.controllers).toEqual(expect.arrayContaining(['cpuset', 'cpu']));
    expect(probe.layout).toBe('1 package × 2 cores × 2 threads');
    expect(probe.plans.duet.slots).toEqual(['1', '3']);
    expect(probe.isolation).toMatchObject({
      kind: 'cgroup-v2',
      slots: ['1', '3'],
      cpuWeight: 'cpu.weight=10000',
      partition: 'root',
    });
    expect(probe.fingerprint).toMatchObject({ cgroup: 'v2', vcpus: 4, isolation: 'cgroup-v2' });
    const topics: Loose = Object.fromEntries(
      (findings as { topic: string }[]).map((f) => [f.topic, f]),
    );
    expect(topics.cgroup.status).toBe('ok');
    expect(topics.privileges.text).toMatch(/sudo/);
    expect(topics.partition.status).toBe('ok');
    // It made the duet's group to see, and removed it.
    expect(doctor.groups).toEqual([]);
  });
});

describe('the cgroup v2 backend as runner, through sudo -n', () => {
  it('with the CPU weight and a partition: the measured CPUs are exclusive while the run lasts', () => {
    const { report, during, sleeper, harnessCpus, after } = stepOf('weighted');
    expect(report).toMatchObject({
      kind: 'cgroup-v2',
      slots: ['1', '3'],
      cpuWeight: 'cpu.weight=10000',
      partition: 'root',
    });
    expect(report.warnings).toContain('cgroups were created through sudo -n');
    expect(during).toMatchObject({
      partition: 'root',
      effective: '1,3',
      weight: '10000',
      slots: [
        { name: 'slot-0', cpus: '1', weight: '10000' },
        { name: 'slot-1', cpus: '3', weight: '10000' },
      ],
      // Everything else — the root group, system.slice — lost the measured CPUs.
      systemSlice: '0,2',
      pid1Cpus: '0,2',
    });
    expect(sleeper.cgroup).toBe(`0::/${path.basename(report.cgroup)}/slot-0`);
    expect(sleeper.cpus).toBe('1');
    expect(harnessCpus).toBe('0,2');
    expect(after).toEqual({ groupLeft: false, sleeperAlive: false, pid1Cpus: '0-3', groups: [] });
  });

  it('without the weight nor a partition when asked: the CPU sets alone, other processes keep every CPU', () => {
    const { report, during, sleeper, after } = stepOf('plain');
    expect(report.kind).toBe('cgroup-v2');
    expect(report.cpuWeight).toBeUndefined();
    expect(report.partition).toBeUndefined();
    expect(during).toMatchObject({ partition: 'member', effective: '1,3', pid1Cpus: '0-3' });
    expect(during.slots).toEqual([
      { name: 'slot-0', cpus: '1', weight: null },
      { name: 'slot-1', cpus: '3', weight: null },
    ]);
    expect(sleeper.cpus).toBe('1');
    expect(after).toEqual({ groupLeft: false, sleeperAlive: false, pid1Cpus: '0-3', groups: [] });
  });

  it('after a run killed with SIGKILL, its group and partition stay until the next run sweeps them', () => {
    const killed = stepOf('sigkill');
    expect(killed.exit.signal).toBe('SIGKILL');
    expect(killed.leftover).toMatchObject({ partition: 'root', pid1Cpus: '0,2' });
    expect(killed.groups).toEqual([killed.group]);
    const quickstart = stepOf('quickstart');
    expect(quickstart.after.groups).toEqual([]);
    expect(quickstart.after.pid1Cpus).toBe('0-3');
  });
});

describe('the quickstart as runner', () => {
  it('runs as a duet with isolation cgroup-v2, exclusive CPUs, and the machine in its fingerprint', () => {
    const { exit, samples, comparison, stderr } = stepOf('quickstart');
    expect([exit, stderr]).toEqual([{ code: 0, signal: null }, expect.any(String)]);
    const isolation = samples.isolation;
    expect(isolation).toMatchObject({
      kind: 'cgroup-v2',
      requested: 'cpuset',
      slots: ['1', '3'],
      cpuWeight: 'cpu.weight=10000',
      partition: 'root',
    });
    expect(isolation.cpuPlan).toMatchObject({ basis: 'topology', siblingsInUse: true });
    expect(samples.machine.fingerprint).toMatchObject({
      cgroup: 'v2',
      layout: '1 package × 2 cores × 2 threads',
      vcpus: 4,
      isolation: 'cgroup-v2',
      hypervisor: { present: true },
    });
    expect(comparison.isolation.partition).toBe('root');
    expect(comparison.fingerprint.cgroup).toBe('v2');
    const names = (comparison.results as { benchmark: string }[]).map((r) => r.benchmark);
    expect([...new Set(names)].sort()).toEqual(['checksum', 'sort']);
  });

  it('held the partition while it ran, and left no duetkit group behind', () => {
    const { seen, after } = stepOf('quickstart');
    expect(seen).toContain('duetkit partition=root pid1=0,2');
    expect(after.groups).toEqual([]);
    expect(after.subtreeControl.split(' ')).toEqual(expect.arrayContaining(['cpuset', 'cpu']));
  });
});
