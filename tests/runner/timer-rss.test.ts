import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { runScenario } from '../../src/pipeline/local-run.js';
import type { SamplesFile, Trial } from '../../src/contracts/samples.js';
import type { ScenarioInput } from '../../src/scenario/schema.js';
import { loadedScenario, makeWorkspace, never, removeWorkspace } from './helpers.js';

const SOURCE = path.resolve('tests/programs/memory/memtouch.c');
const MIB = 1024; // KiB

const measured = (samples: SamplesFile, version: number): Trial[] =>
  samples.trials
    .filter((t) => !t.warmup && t.version === version)
    .sort((a, b) => a.round - b.round);

const valueOf = (trial: Trial, name: string): number => {
  const metric = trial.metrics.find((m) => m.name === name);
  if (metric === undefined) throw new Error(`no metric ${name} in ${JSON.stringify(trial)}`);
  return metric.values[0]!;
};

// The peak RSS of each iteration (workload.metric: rss), from the timer's wait4 of that
// iteration's command: a real C program touching known amounts of memory.
describe('peak RSS per iteration', () => {
  let root: string;
  beforeAll(async () => {
    root = await makeWorkspace({ a: {}, b: {} });
    for (const side of ['a', 'b']) {
      const built = spawnSync('cc', ['-O1', '-o', path.join(root, side, 'memtouch'), SOURCE], {
        encoding: 'utf8',
      });
      if (built.status !== 0) throw new Error(`cc failed: ${built.stderr}`);
    }
  });
  afterAll(() => removeWorkspace(root));

  const run = (input: Partial<ScenarioInput> & Pick<ScenarioInput, 'versions' | 'workload'>) =>
    runScenario(loadedScenario({ iterations: 6, warmup: 1, seed: 5, ...input }, root), {
      signal: never,
      env: process.env,
    });

  it("is each iteration's own peak, not the largest so far", async () => {
    // Each side touches 96, 8, 48 MiB in turn: a running maximum would never fall back to 8.
    const pattern = { MEMTOUCH_PATTERN: '96 8 48' };
    const samples = await run({
      mode: 'duet',
      versions: [
        { name: 'base', path: 'a', env: pattern },
        { name: 'head', path: 'b', env: pattern },
      ],
      workload: { command: './memtouch', metric: ['wall', 'rss'] },
    });
    expect(samples.error).toBeNull();
    for (const version of [0, 1]) {
      const all = samples.trials
        .filter((t) => t.version === version)
        .sort((a, b) => a.round - b.round || Number(b.warmup) - Number(a.warmup));
      const rss = all.map((t) => valueOf(t, 'peak-rss'));
      // 1 warm-up + 6 measured runs, in order: 96, 8, 48, 96, 8, 48, 96 MiB touched.
      const touched = [96, 8, 48, 96, 8, 48, 96];
      expect(rss).toHaveLength(touched.length);
      rss.forEach((kib, i) => {
        expect(kib).toBeGreaterThanOrEqual(touched[i]! * MIB);
        // the program itself and the C library: a few MiB at most
        expect(kib).toBeLessThan((touched[i]! + 6) * MIB);
      });
      for (const t of all) {
        expect(t.metrics.map((m) => [m.name, m.unit, m.biggerIsBetter])).toEqual([
          ['wall-time', 'ms', false],
          ['peak-rss', 'KiB', false],
        ]);
      }
    }
  }, 120_000);

  it('names the metrics of a list after workload.name, the first bare', async () => {
    const samples = await run({
      mode: 'rmit',
      iterations: 2,
      versions: [
        { name: 'base', path: 'a', env: { MEMTOUCH_MIB: '16' } },
        { name: 'head', path: 'b', env: { MEMTOUCH_MIB: '32' } },
      ],
      workload: { command: './memtouch', metric: ['rss', 'wall', 'cpu'], name: 'touch' },
    });
    expect(samples.error).toBeNull();
    const trial = measured(samples, 1)[0]!;
    expect(trial.metrics.map((m) => m.name)).toEqual(['touch', 'touch (wall)', 'touch (cpu)']);
    expect(valueOf(trial, 'touch')).toBeGreaterThanOrEqual(32 * MIB);
    expect(valueOf(trial, 'touch (cpu)')).toBeCloseTo(trial.cpuMs!, 2);
    expect(valueOf(measured(samples, 0)[0]!, 'touch')).toBeLessThan(24 * MIB);
  }, 120_000);
});
