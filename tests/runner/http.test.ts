import { spawnSync } from 'node:child_process';
import { readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import { analyzeSamples } from '../../src/analyze/analyze.js';
import { describeReport } from '../../src/report/terminal.js';
import { runScenario } from '../../src/pipeline/local-run.js';
import type { ScenarioInput } from '../../src/scenario/schema.js';
import { loadedScenario, makeWorkspace, never, removeWorkspace } from './helpers.js';

/** A small server: /fast answers at once, /slow after SPIN ms of CPU, /healthz for readiness. */
const server = (spinMs: number, extra = '') => `
import http from 'node:http';
${extra}
http.createServer((req, res) => {
  if (req.url === '/slow') { const t = performance.now(); while (performance.now() - t < ${spinMs}) {} }
  if (req.url === '/hang' && process.env.HANG === '1') return;
  if (process.env.FAIL === '1' && req.url !== '/healthz') { res.writeHead(500).end('database is down'); return; }
  res.end('ok');
}).listen(Number(process.env.PORT), '127.0.0.1');
`;

/** Processes still running in the workspace (a server left behind would be one). */
function leftovers(root: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readlinkSync(`/proc/${pid}/cwd`).startsWith(root);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('http driver: real servers on 127.0.0.1', () => {
  let root: string;
  beforeAll(async () => {
    root = await makeWorkspace({
      base: { 'server.mjs': server(1) },
      head: { 'server.mjs': server(3) },
      // Ignores SIGTERM and has a child of its own: only SIGKILL of the whole tree stops it.
      stubborn: {
        'server.mjs': server(
          1,
          "import { spawn } from 'node:child_process'; process.on('SIGTERM', () => {}); spawn('sleep', ['300'], { stdio: 'ignore' });",
        ),
      },
      exits: { 'server.mjs': "console.error('boom: no config'); process.exit(3);" },
    });
  });
  afterAll(() => removeWorkspace(root));
  afterEach(() => expect(leftovers(root)).toEqual([]));

  const run = (
    head: string,
    workload: Record<string, unknown> = {},
    extra: Partial<ScenarioInput> = {},
    signal = never,
  ) =>
    runScenario(
      loadedScenario(
        {
          mode: 'duet',
          versions: [
            { name: 'base', path: 'base' },
            { name: 'head', path: head },
          ],
          workload: {
            driver: 'http',
            server: { command: 'node server.mjs', ready: { http: '/healthz', timeout: 5 } },
            load: {
              stages: [
                { duration: 0.3, qps: 100, warmup: true },
                { duration: 1, qps: 150 },
              ],
              mix: [{ path: '/fast' }, { path: '/slow' }],
              percentiles: [50, 99],
              // The test machine is shared: honesty is checked in its own test below.
              maxSendLag: 60,
              minSendRate: 0.01,
            },
            ...workload,
          },
          iterations: 2,
          warmup: 0,
          seed: 3,
          ...extra,
        } as ScenarioInput,
        root,
      ),
      { signal, env: process.env },
    );

  it('duet: one phase for both, each percentile a metric, overall and per request', async () => {
    const samples = await run('head');
    expect(samples.error).toBeNull();
    expect(samples.trials).toHaveLength(4);
    const [b, h] = [samples.trials[0]!, samples.trials[1]!];
    expect(b.load!.sent).toBe(h.load!.sent); // the same arrivals for both
    expect(b.load!.errors).toEqual({ status: 0, timeout: 0, connection: 0, other: 0 });
    expect(b.metrics.map((m) => m.name)).toEqual([
      'latency p50',
      'latency p99',
      'latency mean',
      'GET /fast p50',
      'GET /fast p99',
      'GET /fast mean',
      'GET /slow p50',
      'GET /slow p99',
      'GET /slow mean',
    ]);
    const slow = (t: typeof b) => t.metrics.find((m) => m.name === 'GET /slow p50')!.values[0]!;
    expect(slow(h)).toBeGreaterThan(slow(b));
    const report = analyzeSamples(samples);
    expect(report.load!.versions.map((v) => v.version)).toEqual(['base', 'head']);
    expect(report.load!.generator).toMatch(/^the load generator ran on CPU/);
    expect(report.results.some((r) => r.benchmark === 'GET /slow p50')).toBe(true);
    const text = describeReport(report);
    expect(text).toContain(
      'load: open loop, Poisson arrivals, latency from each intended send time;',
    );
    expect(text).toMatch(/load head: 2 iterations, \d+ req\/s intended, \d+ answered/);
  });

  it('rmit: each version its own phase, with the same schedule in a round; replicas share it', async () => {
    const samples = await run(
      'head',
      { server: { command: 'node server.mjs', replicas: 2 } },
      { mode: 'rmit', iterations: 1 },
    );
    expect(samples.error).toBeNull();
    const [a, b] = samples.trials;
    expect(a!.round).toBe(b!.round);
    expect(a!.load!.sent).toBe(b!.load!.sent);
    const [r0, r1] = a!.load!.perReplica;
    expect(Math.abs(r0! - r1!)).toBeLessThanOrEqual(1); // round-robin
  });

  it('timeouts are errors by kind (and latency); a generator that falls behind makes iterations invalid', async () => {
    const samples = await run('head', {
      load: {
        stages: [{ duration: 0.6, qps: 50 }],
        mix: [{ path: '/fast', weight: 9 }, { path: '/hang' }],
        timeout: 0.2,
        maxErrorRate: 1,
        maxSendLag: 0.000001, // 1 µs: no generator keeps up with that
      },
      server: {
        command: 'node server.mjs',
        env: { HANG: '1' },
      },
    });
    expect(samples.error).toBeNull();
    const t = samples.trials[0]!;
    expect(t.load!.errors.timeout).toBeGreaterThan(0);
    expect(t.load!.examples[0]!.detail).toBe('no answer within 0.2 s of its intended send time');
    expect(t.invalid).toMatch(
      /^the load generator could not keep up: send lag p99 [\d.]+ ms > workload\.load\.maxSendLag 0\.001 ms$/,
    );
    const report = analyzeSamples(samples);
    expect(report.load!.invalid).toHaveLength(2);
    expect(report.results.every((r) => r.error !== null)).toBe(true); // nothing left to compare
  });

  it('a server command that does not exist: names the field, nothing left running', async () => {
    const samples = await run('head', {
      server: { command: 'no-such-server-xyz --port $PORT' },
    });
    expect(samples.stopReason).toBe('failed');
    expect(samples.error).toBe(
      'workload.server.command: no-such-server-xyz is not an executable on the PATH; install it or fix the command',
    );
  });

  it('a server that exits before it is ready: its output', async () => {
    const samples = await run('exits');
    expect(samples.error).toMatch(
      /^server head replica 0 \(node server\.mjs, port \d+\) exited before it was ready: exited with code 3; the end of its output:\n {2}\| boom: no config$/,
    );
  });

  it('a fixed port in use: names the field and the port', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as net.AddressInfo).port;
    // A port that was free a moment ago, for base (port + 1 may belong to anyone).
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const free = (probe.address() as net.AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    try {
      const samples = await run('head', {
        server: { command: 'node server.mjs', ports: { base: [free], head: [port] } },
      });
      expect(samples.error).toBe(
        `workload.server.ports.head[0]: port ${port} on 127.0.0.1 is already in use by another process; free it or choose another port`,
      );
    } finally {
      holder.close();
    }
  });

  it('a server that answers 500: the run fails naming the server, the kind and an example', async () => {
    const samples = await run('head', {
      server: { command: 'node server.mjs', ready: { http: '/healthz' }, env: { FAIL: '1' } },
    });
    // whichever side the seeded order runs first fails first; the message names that side twice
    expect(samples.error).toMatch(
      /^server (base|head): \d+ of \d+ requests failed in iteration 0 \(100\.0%, more than workload\.load\.maxErrorRate 1%\): \d+ non-2xx answers \(HTTP 500 ×\d+\); first of each kind:\n {2}server \1 replica 0 \(node server\.mjs, port \d+\), GET \/(fast|slow): HTTP 500: database is down$/,
    );
  });

  it('a server that ignores SIGTERM is killed with its whole tree after stopTimeout', async () => {
    const started = Date.now();
    const samples = await run(
      'stubborn',
      { server: { command: 'node server.mjs', stopTimeout: 0.5 } },
      { iterations: 1 },
    );
    expect(samples.error).toBeNull();
    expect(Date.now() - started).toBeGreaterThan(500);
  });

  it('from the bundle: dist/cli.js finds its load generator (dist/load-generator.js)', () => {
    const scenario = path.join(root, 'bundle.yml');
    writeFileSync(
      scenario,
      [
        'mode: rmit',
        'versions: [{name: base, path: base}, {name: head, path: head}]',
        'workload:',
        '  driver: http',
        '  server: {command: node server.mjs}',
        '  load: {arrival: constant, stages: [{duration: 0.5, qps: 50}], maxSendLag: 60, minSendRate: 0.01}',
        'iterations: 1',
        'warmup: 0',
      ].join('\n'),
    );
    const out = path.join(root, 'bundle-out');
    const run = spawnSync(process.execPath, ['dist/cli.js', 'run', scenario, '--out', out], {
      encoding: 'utf8',
    });
    expect(run.stderr).not.toContain('error');
    expect(run.stdout).toContain('load base: 1 iterations, 50.0 req/s intended');
  });

  it('interrupted mid-phase: stops, saves what it has, stops the servers', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort('SIGINT'), 2500);
    const samples = await run('head', {}, { iterations: 50 }, controller.signal);
    expect(samples.stopReason).toBe('interrupted');
    expect(samples.complete).toBe(false);
  });
});
