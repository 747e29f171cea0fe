import { existsSync } from 'node:fs';
import path from 'node:path';
import { runScenario } from '../../src/pipeline/local-run.js';
import type { ScenarioInput } from '../../src/scenario/schema.js';
import { loadedScenario, makeWorkspace, never, removeWorkspace } from './helpers.js';

/** Prints a throughput every 10 ms: LOW for the first 10 samples (its warm-up), then HIGH. */
const job = (high: number, forever = false) => `
let i = 0;
const timer = setInterval(() => {
  console.log(\`\${(i * 0.01).toFixed(2)} \${i < 10 ? 20 : ${high} + (i % 3)}\`);
  if (++i === 60 && ${!forever}) { clearInterval(timer); }
}, 10);
`;

describe('stream driver', () => {
  let root: string;
  beforeAll(async () => {
    root = await makeWorkspace({
      base: { 'job.js': job(100) },
      head: { 'job.js': job(90) },
      forever: { 'job.js': job(90, true) },
      noisy: { 'job.js': 'console.log("starting"); console.log("0.1 5");' },
    });
  });
  afterAll(() => removeWorkspace(root));

  const run = (head: string, stream: Record<string, unknown> = {}) =>
    runScenario(
      loadedScenario(
        {
          versions: [
            { name: 'base', path: 'base' },
            { name: 'head', path: head },
          ],
          workload: {
            driver: 'stream',
            command: 'node job.js',
            name: 'throughput',
            stream: { biggerIsBetter: true, ...stream },
          },
          iterations: 2,
          warmup: 0,
          seed: 1,
        } as ScenarioInput,
        root,
      ),
      { signal: never, env: process.env },
    );

  it('duet: the warm-up is detected and cut, the steady state averaged', async () => {
    const samples = await run('head');
    expect(samples.error).toBeNull();
    const values = samples.trials.map((t) => [t.version, t.metrics[0]!.values[0]]);
    for (const [version, value] of values) {
      expect(value).toBeCloseTo(version === 0 ? 101 : 91, 0);
    }
  });

  it('stops a program that runs on after `duration`', async () => {
    const samples = await run('forever', { duration: 0.8, warmup: 0.2 });
    expect(samples.error).toBeNull();
    expect(samples.trials[1]!.metrics[0]!.values[0]).toBeCloseTo(91, 0);
  });

  it('a line that is no sample is an error naming it', async () => {
    const samples = await run('noisy');
    expect(samples.error).toContain(
      'produced no steady state: line 1: expected "TIME VALUE", "TIME NAME VALUE" or a JSON object with "time", found "starting"',
    );
  });
});

describe('k6 driver (real k6, built by .ci/setup-k6.sh)', () => {
  const k6 = path.resolve('.tools/bin/k6');
  let root: string;
  beforeAll(async () => {
    if (!existsSync(k6)) throw new Error(`k6 is missing: run bash .ci/setup-k6.sh (${k6})`);
    const script = `
import http from 'k6/http';
export const options = { scenarios: { s: { executor: 'constant-arrival-rate', rate: 20, timeUnit: '1s', duration: '1s', preAllocatedVUs: 5 } } };
export default function () { http.get(__ENV.BASE_URL + '/'); }
`;
    const server = `require('node:http').createServer((q, s) => s.end('ok')).listen(Number(process.env.PORT), '127.0.0.1');`;
    root = await makeWorkspace({
      base: { 'load.js': script, 'server.js': server },
      head: { 'load.js': script, 'server.js': server },
    });
  });
  afterAll(() => removeWorkspace(root));

  it("runs the script against each version's server and reads its summary", async () => {
    const samples = await runScenario(
      loadedScenario(
        {
          mode: 'rmit',
          versions: [
            { name: 'base', path: 'base' },
            { name: 'head', path: 'head' },
          ],
          workload: {
            driver: 'k6',
            command: [k6, 'run', 'load.js'],
            server: { command: 'node server.js' },
          },
          iterations: 1,
          warmup: 0,
          seed: 1,
        },
        root,
      ),
      { signal: never, env: process.env },
    );
    expect(samples.error).toBeNull();
    // k6 writes its summary's metrics in no fixed order.
    expect(samples.trials[0]!.metrics.map((m) => m.name).sort()).toEqual([
      'http_req_duration avg',
      'http_req_duration med',
      'http_req_duration p(90)',
      'http_req_duration p(95)',
      'http_reqs rate',
    ]);
  });
});
