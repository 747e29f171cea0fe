/**
 * Pieces of `npm run bench:http`: the Go test server (benchmarks/http/server, built once into
 * ~/.cache/duetkit), the load generator on a pinned CPU, and k6 on the same CPU.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chooseIsolation } from '../../src/isolation/choose.js';
import type { Isolation } from '../../src/isolation/types.js';
import { startGenerator } from '../../src/load/generator-process.js';
import type { PhaseResult } from '../../src/load/protocol.js';
import { loadSchema, type LoadSpec } from '../../src/scenario/service-schema.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

let isolation: Isolation | null = null;

/**
 * The generator on CPU 0 and the server on CPU 1, each in a cgroup cpuset with the largest
 * CPU weight (as duetkit places measured processes), so that other work on the machine gets
 * only a sliver of those CPUs while a phase runs. Slot 0 is CPU 0, slot 1 is CPU 1.
 */
async function slots(): Promise<Isolation> {
  isolation ??= await chooseIsolation('cpuset', {
    slotCount: 2,
    cpus: [0, 1],
    pinHarness: false,
    cpuWeight: true,
  });
  return isolation;
}

/** Removes the cgroups (call once at the end). */
export async function disposeSlots(): Promise<void> {
  await isolation?.dispose();
  isolation = null;
}

/** Where `cpus` ("0" or "1") puts a process: the slot of that CPU. */
async function attach(pid: number, cpus: string): Promise<void> {
  await (await slots()).place(cpus === '0' ? 0 : 1).attach(pid);
}

/** Builds (once) and returns the path of the Go test server. */
export function benchServer(): string {
  const dir = path.join(
    process.env.DUETKIT_CACHE ?? path.join(os.homedir(), '.cache', 'duetkit'),
    'bench-server',
  );
  const binary = path.join(dir, 'benchserver');
  const source = path.join(ROOT, 'benchmarks', 'http', 'server');
  mkdirSync(dir, { recursive: true });
  execFileSync('go', ['build', '-o', binary, '.'], { cwd: source, stdio: 'inherit' });
  return binary;
}

export interface RunningServer {
  origins: string[];
  origin: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * Starts the test server with `args`, pinned to `cpus`, listening on `replicas` ports (each a
 * queue of its own, in one process), and waits until it accepts connections.
 */
export async function startBenchServer(
  args: string[],
  cpus: string,
  replicas = 1,
): Promise<RunningServer> {
  const ports: number[] = [];
  for (let i = 0; i < replicas; i++) ports.push(await freePort());
  const child: ChildProcess = spawn(benchServer(), args, {
    env: { ...process.env, PORTS: ports.join(','), GOMAXPROCS: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await attach(child.pid!, cpus);
  for (const port of ports) {
    for (let i = 0; i < 200; i++) {
      if (await connects(port)) break;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  return {
    origins: ports.map((port) => `http://127.0.0.1:${port}`),
    origin: `http://127.0.0.1:${ports[0]}`,
    port: ports[0]!,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

export interface PhaseRun {
  result: PhaseResult;
  /** CPU time the generator process used during the phase, as a share of one CPU. */
  generatorCpu: number;
}

/** One phase of the load generator (pinned to `cpus`) against `origins`. */
export async function runPhase(
  input: Record<string, unknown>,
  origins: string[],
  cpus: string,
  seed = 1,
): Promise<PhaseRun> {
  const load: LoadSpec = loadSchema.parse(input);
  const generator = await startGenerator([]);
  try {
    await attach(generator.pid, cpus);
    await generator.request({
      type: 'configure',
      load,
      targets: [{ version: 'server', origins }],
      spin: true,
    });
    const before = cpuTicks(generator.pid);
    const t0 = performance.now();
    const result = await generator.phase({ type: 'phase', id: 0, targets: [0], seed });
    const seconds = (performance.now() - t0) / 1000;
    const ticks = cpuTicks(generator.pid) - before;
    return { result, generatorCpu: ticks / 100 / seconds };
  } finally {
    await generator.close();
  }
}

function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** k6 at a constant arrival rate against `url`, pinned to `cpus`: its summary's trend stats (ms). */
export async function runK6(
  url: string,
  rate: number,
  seconds: number,
  cpus: string,
): Promise<Record<string, number>> {
  const k6 = path.join(ROOT, '.tools', 'bin', 'k6');
  if (!existsSync(k6)) throw new Error('k6 is missing: run bash .ci/setup-k6.sh');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'duetkit-k6-bench-'));
  try {
    await writeFile(
      path.join(dir, 'load.js'),
      `import http from 'k6/http';
export const options = {
  scenarios: { s: { executor: 'constant-arrival-rate', rate: ${rate}, timeUnit: '1s', duration: '${seconds}s', preAllocatedVUs: 400, maxVUs: 2000 } },
  summaryTrendStats: ['avg', 'med', 'p(90)', 'p(95)', 'p(99)', 'p(99.9)', 'max'],
};
export default function () { http.get('${url}'); }
`,
    );
    const child = spawn(
      k6,
      ['run', '--no-usage-report', '--quiet', '--summary-export', 'summary.json', 'load.js'],
      {
        cwd: dir,
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...process.env, K6_NO_USAGE_REPORT: 'true' },
      },
    );
    await attach(child.pid!, cpus);
    const code = await new Promise((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`k6 exited with ${String(code)}`);
    const summary = JSON.parse(await readFile(path.join(dir, 'summary.json'), 'utf8')) as {
      metrics: Record<string, Record<string, number>>;
    };
    return { ...summary.metrics.http_req_duration!, count: summary.metrics.http_reqs!.count! };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
