import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { main } from '../../src/cli/main.js';
import { makeWorkspace, removeWorkspace } from '../runner/helpers.js';
import { writeFile } from 'node:fs/promises';
import { fakeContext as context } from '../helpers/cli.js';

// Sleep-based work: the head takes twice as long whatever else the machine is doing.
const SCENARIO = `name: sleepy
versions:
  - {name: base, path: fast}
  - {name: head, path: slow}
workload:
  command: sh x.sh
iterations: 10
warmup: 1
seed: 5
analysis: {resamples: 2000}
`;

describe('duetkit run / analyze', () => {
  let root: string;
  beforeAll(async () => {
    root = await makeWorkspace({
      fast: { 'x.sh': 'sleep 0.02\n' },
      slow: { 'x.sh': 'sleep 0.04\n' },
    });
    await writeFile(path.join(root, 'sleepy.yml'), SCENARIO);
    await writeFile(
      path.join(root, 'broken.yml'),
      SCENARIO.replace('iterations: 10', 'iterations: ten'),
    );
  });
  afterAll(() => removeWorkspace(root));

  it('runs, writes samples.json and comparison.json, prints the report, gates on --fail-on', async () => {
    const ctx = context(root);
    const code = await main(['run', 'sleepy.yml', '--out', 'out', '--fail-on', 'regression'], ctx);
    expect(ctx.err).toMatch(/measuring sleepy \(duet\), isolation (cgroup-v1|taskset)/);
    expect(ctx.out).toMatch(/wall-time .* regression/);
    expect(ctx.out).toContain('summary: 1 regression');
    expect(code).toBe(1);
    const samples = JSON.parse(await readFile(path.join(root, 'out', 'samples.json'), 'utf8'));
    expect(samples).toMatchObject({
      schemaVersion: 1,
      complete: true,
      mode: 'duet',
      seed: 5,
      stopReason: 'iterations',
    });
    expect(samples.machine).toHaveProperty('cpuModel');
    expect(samples.machine.loadAverage).toHaveLength(3);
    expect(samples.trials).toHaveLength(22);
    const comparison = JSON.parse(
      await readFile(path.join(root, 'out', 'comparison.json'), 'utf8'),
    );
    expect(comparison.results[0]).toMatchObject({
      benchmark: 'wall-time',
      version: 'head',
      baseline: 'base',
    });
    expect(comparison.results[0].comparison.paired).toBe(true);
    expect(comparison.results[0].comparison.n.base).toBe(10);

    // Without --fail-on the same outcome exits 0.
    expect(await main(['run', 'sleepy.yml', '--out', 'out2'], context(root))).toBe(0);
  });

  it('analyze re-reads the samples with other settings, without running anything', async () => {
    const ctx = context(root);
    const code = await main(
      ['analyze', 'out/samples.json', '--json', '--level', '0.9', '--threshold', '150%'],
      ctx,
    );
    expect(code).toBe(0);
    const report = JSON.parse(ctx.out);
    expect(report.settings).toMatchObject({ level: 0.9, threshold: 1.5, seed: 5 });
    expect(report.results[0].comparison.verdict).toBe('unchanged');
    const bad = context(root);
    expect(await main(['analyze', 'sleepy.yml'], bad)).toBe(2);
    expect(bad.err).toMatch(/cannot read samples sleepy.yml|schemaVersion/);
  });

  it('reports an invalid scenario in one line per problem, without a stack trace', async () => {
    const ctx = context(root);
    expect(await main(['run', 'broken.yml'], ctx)).toBe(2);
    expect(ctx.err).toContain('iterations: got "ten"; expected');
    expect(ctx.err).not.toMatch(/\n\s+at /);
  });
});
