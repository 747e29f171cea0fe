/**
 * What tests/vm/runner-vm.test.ts runs inside the runner-like VM, as `runner` (bundled by
 * esbuild into the share as lab.mjs; lab.sh starts it). Each step's result goes into
 * out/results.json as soon as it is known, so a boot that times out still says how far it
 * got; the test asserts on that file. Behaviour only: timing under TCG is emulated.
 *
 *   node lab.mjs OUT_DIR DUETKIT_DIR
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCgroupV2 } from '../../../src/isolation/cgroup-v2.js';
import { chooseIsolation } from '../../../src/isolation/choose.js';
import { planOnTopology } from '../../../src/isolation/cpu-plan.js';
import { allowedCpus } from '../../../src/isolation/cpus.js';
import { readTopology } from '../../../src/isolation/topology.js';
import type { Isolation } from '../../../src/isolation/types.js';

const [out = '/host/out', duetkit = '/opt/duetkit'] = process.argv.slice(2);
const CG = '/sys/fs/cgroup';
const cli = path.join(duetkit, 'dist/cli.js');
const results: Record<string, unknown> = {};

const read = (file: string): string | null => {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** duetkit's groups under the root of the hierarchy. */
const duetkitGroups = (): string[] => readdirSync(CG).filter((e) => e.startsWith('duetkit'));
/** What every process outside the run may use: PID 1 sits in the root group. */
const pid1Cpus = (): string | null =>
  /Cpus_allowed_list:\s*(\S+)/.exec(read('/proc/1/status') ?? '')?.[1] ?? null;
const cpusOf = (pid: number): string | null =>
  /Cpus_allowed_list:\s*(\S+)/.exec(read(`/proc/${pid}/status`) ?? '')?.[1] ?? null;
const alive = (pid: number): boolean => existsSync(`/proc/${pid}`);

async function step(name: string, body: () => Promise<unknown>): Promise<void> {
  const started = Date.now();
  try {
    results[name] = { ok: true, value: await body(), seconds: (Date.now() - started) / 1000 };
  } catch (error) {
    results[name] = { ok: false, error: (error as Error).stack ?? String(error) };
  }
  writeFileSync(path.join(out, 'results.json'), JSON.stringify(results, null, 2));
}

/** The cgroup files of a run's group while it exists, and what it does to the machine. */
function groupState(dir: string) {
  const slots = readdirSync(dir).filter((e) => e.startsWith('slot-'));
  return {
    partition: read(path.join(dir, 'cpuset.cpus.partition')),
    cpus: read(path.join(dir, 'cpuset.cpus')),
    effective: read(path.join(dir, 'cpuset.cpus.effective')),
    weight: read(path.join(dir, 'cpu.weight')),
    subtreeControl: read(path.join(dir, 'cgroup.subtree_control')),
    slots: slots.map((slot) => ({
      name: slot,
      cpus: read(path.join(dir, slot, 'cpuset.cpus.effective')),
      weight: read(path.join(dir, slot, 'cpu.weight')),
    })),
    systemSlice: read(path.join(CG, 'system.slice/cpuset.cpus.effective')),
    pid1Cpus: pid1Cpus(),
  };
}

/** A long sleep placed in slot 0, and where the kernel lets it run. */
async function placeSleeper(isolation: Isolation) {
  const child = spawn('sleep', ['600'], { stdio: 'ignore' });
  await isolation.place(0).attach(child.pid!);
  await sleep(100);
  return {
    child,
    seen: {
      cgroup: read(`/proc/${child.pid}/cgroup`),
      cpus: cpusOf(child.pid!),
    },
  };
}

async function afterDispose(isolation: Isolation, child: ChildProcess) {
  await isolation.dispose();
  await sleep(200);
  return {
    groupLeft: existsSync(isolation.report.cgroup!),
    sleeperAlive: alive(child.pid!),
    pid1Cpus: pid1Cpus(),
    groups: duetkitGroups(),
  };
}

await step('guest', async () => ({
  user: os.userInfo().username,
  pid1: read('/proc/1/comm'),
  cgroupMount: spawnSync('stat', ['-f', '-c', '%T', CG], { encoding: 'utf8' }).stdout.trim(),
  controllers: read(path.join(CG, 'cgroup.controllers')),
  subtreeControl: read(path.join(CG, 'cgroup.subtree_control')),
  ownCgroup: read('/proc/self/cgroup'),
  sudo: spawnSync('sudo', ['-n', 'true']).status,
  kernel: os.release(),
  cpus: allowedCpus(),
  siblings: [0, 1, 2, 3].map((cpu) =>
    read(`/sys/devices/system/cpu/cpu${cpu}/topology/thread_siblings_list`),
  ),
  plan: planOnTopology(allowedCpus(), 2, readTopology(allowedCpus()))?.record ?? null,
}));

await step('doctor', async () => {
  const run = spawnSync(process.execPath, [cli, 'doctor', '--json'], { encoding: 'utf8' });
  return {
    status: run.status,
    stderr: run.stderr,
    json: run.status === 0 ? JSON.parse(run.stdout) : run.stdout,
    groups: duetkitGroups(),
  };
});

// cgroup v2 with the CPU weight and a partition: what a duet gets on a 2 cores × 2 threads runner.
await step('weighted', async () => {
  const isolation = await chooseIsolation('cpuset', { slotCount: 2 });
  const during = groupState(isolation.report.cgroup!);
  const { child, seen } = await placeSleeper(isolation);
  return {
    report: isolation.report,
    during,
    sleeper: seen,
    harnessCpus: cpusOf(process.pid),
    after: await afterDispose(isolation, child),
  };
});

// Neither the weight nor a partition (cpuWeight: false, exclusive: false): the CPU sets alone.
await step('plain', async () => {
  const plan = planOnTopology(allowedCpus(), 2, readTopology(allowedCpus()))!;
  const isolation = await createCgroupV2({
    slots: plan.slots,
    harness: plan.harness,
    requested: 'cpuset',
    warnings: [],
    cpuWeight: false,
    exclusive: false,
  });
  const during = groupState(isolation.report.cgroup!);
  const { child, seen } = await placeSleeper(isolation);
  return {
    report: isolation.report,
    during,
    sleeper: seen,
    after: await afterDispose(isolation, child),
  };
});

/** `duetkit run` of the scenario as a child process; resolves on its exit. */
function duetkitRun(scenario: string, outDir: string) {
  const child = spawn(process.execPath, [cli, 'run', scenario, '--out', outDir, '--json'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  return { child, exit, output: () => ({ stdout, stderr }) };
}

/** Waits until a run's group holds a process in a slot (a duet step is under way). */
async function waitForSlotProcesses(timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const group of duetkitGroups()) {
      const slot = read(path.join(CG, group, 'slot-0/cgroup.procs'));
      if (slot !== null && slot !== '') return group;
    }
    await sleep(250);
  }
  throw new Error(`no duetkit group with a process in slot-0 within ${timeoutMs / 1000} s`);
}

const scenario = path.join(duetkit, 'scenarios/vm-quickstart.yml');

// A run killed with SIGKILL mid-way leaves its group and partition behind; the next run (the
// quickstart) sweeps. The killed run is a duet of `sleep`: its sides are in their groups as
// soon as it starts measuring.
await step('sigkill', async () => {
  const killed = duetkitRun(path.join(duetkit, 'scenarios/vm-sleep.yml'), '/tmp/duetkit-killed');
  // Generous: under TCG on a loaded host, a CLI start alone has taken over a minute.
  const group = await waitForSlotProcesses(240_000);
  killed.child.kill('SIGKILL');
  const exit = await killed.exit;
  await sleep(500);
  const dir = path.join(CG, group);
  const leftover = existsSync(dir) ? groupState(dir) : null;
  const leftoverProcs = existsSync(dir)
    ? readdirSync(dir)
        .filter((e) => e.startsWith('slot-'))
        .flatMap((slot) => (read(path.join(dir, slot, 'cgroup.procs')) ?? '').split('\n'))
        .filter(Boolean)
    : [];
  return { group, exit, leftover, leftoverProcs, groups: duetkitGroups() };
});

// The quickstart as a user runs it (the next run after the killed one: it sweeps first).
await step('quickstart', async () => {
  const run = duetkitRun(scenario, '/tmp/duetkit-quickstart');
  // What the machine looks like while the duet runs, sampled.
  const seen = new Set<string>();
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      for (const group of duetkitGroups()) {
        const partition = read(path.join(CG, group, 'cpuset.cpus.partition'));
        seen.add(`${group.split('-')[0]} partition=${partition} pid1=${pid1Cpus()}`);
      }
      await sleep(1000);
    }
  })();
  const exit = await run.exit;
  sampling = false;
  await sampler;
  const { stdout, stderr } = run.output();
  const samples = read('/tmp/duetkit-quickstart/samples.json');
  return {
    exit,
    stderr: stderr.slice(-4000),
    comparison: exit.code === 0 ? JSON.parse(stdout) : stdout.slice(-4000),
    samples: samples === null ? null : JSON.parse(samples),
    seen: [...seen],
    after: {
      groups: duetkitGroups(),
      pid1Cpus: pid1Cpus(),
      subtreeControl: read(path.join(CG, 'cgroup.subtree_control')),
    },
  };
});
