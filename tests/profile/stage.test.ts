import { jest } from '@jest/globals';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { main } from '../../src/cli/main.js';
import type { ComparisonReport } from '../../src/contracts/comparison.js';
import type { ProfilePair, ProfilesFile } from '../../src/contracts/profile.js';
import { fakeContext as context } from '../helpers/cli.js';
import { makeWorkspace } from '../runner/helpers.js';
import { cWorkspace, GO_MOD, GO_TEST, selfShare, totalShare } from './programs.js';

// The profiling stage through `duetkit run`: after the measured pairs, base and head profiled
// in a duet, profiles.json and the raw profiles beside samples.json; a missing profiler is a
// warning and the verdict stands.
jest.setTimeout(300_000);

const SCENARIO = `name: hot
versions:
  - {name: base, path: base}
  - {name: head, path: head}
workload:
  command: ./hot 20000000
iterations: 4
warmup: 0
seed: 3
analysis: {resamples: 1000}
`;

describe('profiles after the verdict (duetkit run --profile)', () => {
  let root: string;
  beforeAll(async () => {
    root = await cWorkspace(['base', 'head']);
    await writeFile(path.join(root, 'hot.yml'), `${SCENARIO}profile: {runs: 2}\n`);
    await writeFile(
      path.join(root, 'forced.yml'),
      `${SCENARIO}profile: {when: always, profiler: py-spy}\n`,
    );
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('--profile always: both sides profiled with perf, raw profiles and profiles.json written', async () => {
    const ctx = context(root);
    const code = await main(['run', 'hot.yml', '--out', 'out', '--profile', 'always'], ctx);
    expect(code).toBe(0);
    expect(ctx.out).toMatch(/profiles: 1 of 1 benchmark\(s\) profiled \(always\) in [\d.]+ s/);
    expect(ctx.out).toContain(path.join(root, 'out', 'profiles.json'));
    const profiles = JSON.parse(
      await readFile(path.join(root, 'out', 'profiles.json'), 'utf8'),
    ) as ProfilesFile;
    expect(profiles).toMatchObject({ schemaVersion: 1, policy: 'always', warnings: [] });
    expect(profiles.seconds).toBeGreaterThan(0);
    expect(profiles.pairs).toHaveLength(1);
    const [pair] = profiles.pairs;
    expect(pair).toMatchObject({ benchmark: 'wall-time', warning: null });
    for (const [side, version] of [
      [pair!.base, 'base'],
      [pair!.head, 'head'],
    ] as const) {
      expect(side).toMatchObject({
        version,
        profiler: 'perf',
        workUnit: 'iteration',
        period: 1 / 999,
      });
      expect(side!.chunks).toHaveLength(2);
      expect(side!.chunks.every((c) => c.work === 1)).toBe(true);
      expect(side!.files).toEqual([
        `profiles/wall-time/${version}.1.perf.txt`,
        `profiles/wall-time/${version}.2.perf.txt`,
      ]);
      for (const file of side!.files)
        expect((await stat(path.join(root, 'out', file))).size).toBeGreaterThan(0);
      const stacks = side!.chunks.flatMap((c) => c.stacks);
      expect(selfShare(stacks, /^hot_loop$/)).toBeGreaterThan(0.6);
    }
    // Profiling is no part of the measured run's time
    const samples = JSON.parse(await readFile(path.join(root, 'out', 'samples.json'), 'utf8'));
    const lastEnd = Math.max(...samples.trials.map((t: { endMs: number }) => t.endMs));
    const runMs = Date.parse(samples.finishedAt) - Date.parse(samples.startedAt);
    expect(runMs - lastEnd).toBeLessThan(pair!.seconds * 1000);
  });

  it('by default (changed) only called results are profiled; never: no profiles.json', async () => {
    const ctx = context(root);
    expect(await main(['run', 'hot.yml', '--out', 'default'], ctx)).toBe(0);
    const comparison = JSON.parse(
      await readFile(path.join(root, 'default', 'comparison.json'), 'utf8'),
    );
    const called = comparison.results.filter((r: { comparison: { verdict: string } | null }) =>
      ['regression', 'improvement'].includes(r.comparison?.verdict ?? ''),
    );
    const profiles = JSON.parse(
      await readFile(path.join(root, 'default', 'profiles.json'), 'utf8'),
    ) as ProfilesFile;
    expect(profiles.policy).toBe('changed');
    expect(profiles.pairs.map((p) => p.benchmark)).toEqual(
      called.map((r: { benchmark: string }) => r.benchmark),
    );

    const quiet = context(root);
    expect(await main(['run', 'hot.yml', '--out', 'never', '--profile', 'never'], quiet)).toBe(0);
    await expect(stat(path.join(root, 'never', 'profiles.json'))).rejects.toThrow();
    expect(quiet.out).not.toContain('profiles:');
  });

  it('a profiler that is missing is a warning in profiles.json, and the verdict stands', async () => {
    const PATH = (process.env.PATH ?? '')
      .split(':')
      .filter((dir) => !dir.includes('.venv'))
      .join(':');
    const ctx = context(root, { ...process.env, PATH });
    const code = await main(['run', 'forced.yml', '--out', 'forced'], ctx);
    expect(code).toBe(0);
    expect(ctx.err).toContain(
      'warning: no profiles (py-spy): py-spy is not installed (not on the PATH)',
    );
    const comparison = JSON.parse(
      await readFile(path.join(root, 'forced', 'comparison.json'), 'utf8'),
    );
    expect(comparison.results[0].comparison).not.toBeNull();
    const profiles = JSON.parse(
      await readFile(path.join(root, 'forced', 'profiles.json'), 'utf8'),
    ) as ProfilesFile;
    expect(profiles.warnings).toEqual([
      'no profiles (py-spy): py-spy is not installed (not on the PATH)',
    ]);
    expect(profiles.pairs).toEqual([
      {
        benchmark: 'wall-time',
        base: null,
        head: null,
        scope: 'benchmark',
        seconds: 0,
        warning: 'py-spy is not installed (not on the PATH)',
      },
    ]);
  });

  it('a failed run is not profiled', async () => {
    await writeFile(
      path.join(root, 'failing.yml'),
      SCENARIO.replace('./hot 20000000', 'sh -c "exit 3"').replace('name: hot', 'name: failing'),
    );
    const ctx = context(root);
    expect(await main(['run', 'failing.yml', '--out', 'failing', '--profile', 'always'], ctx)).toBe(
      1,
    );
    await expect(stat(path.join(root, 'failing', 'profiles.json'))).rejects.toThrow();
    expect(ctx.out).not.toContain('profiles:');
  });

  it('go: pprof of the one benchmark, both sides doing the same b.N', async () => {
    const go = await makeWorkspace({
      base: { 'go.mod': GO_MOD, 'hot_test.go': GO_TEST },
      head: { 'go.mod': GO_MOD, 'hot_test.go': GO_TEST },
    });
    try {
      await writeFile(
        path.join(go, 'go.yml'),
        `versions:
  - {name: base, path: base}
  - {name: head, path: head}
workload: {command: go test -run ^$ -bench . -benchtime 200x, format: go}
iterations: 3
warmup: 0
seed: 3
analysis: {resamples: 1000}
profile: {when: always, runs: 2}
`,
      );
      const ctx = context(go);
      expect(await main(['run', 'go.yml', '--out', 'out'], ctx)).toBe(0);
      const profiles = JSON.parse(
        await readFile(path.join(go, 'out', 'profiles.json'), 'utf8'),
      ) as ProfilesFile;
      const pair = profiles.pairs.find((p) => p.benchmark === 'BenchmarkHot')!;
      expect(pair.warning).toBeNull();
      const work = pair.base!.chunks[0]!.work;
      expect(work).toBeGreaterThan(1);
      for (const side of [pair.base!, pair.head!]) {
        expect(side).toMatchObject({ profiler: 'pprof', workUnit: 'op', period: 0.01 });
        expect(side.chunks.map((c) => c.work)).toEqual([work, work]);
        expect(side.files).toEqual([
          `profiles/BenchmarkHot/${side.version}.1.pprof`,
          `profiles/BenchmarkHot/${side.version}.2.pprof`,
        ]);
        expect(
          selfShare(
            side.chunks.flatMap((c) => c.stacks),
            /\.hot$/,
          ),
        ).toBeGreaterThan(0.5);
      }
    } finally {
      await rm(go, { recursive: true, force: true });
    }
  });

  it('benchmarkCommand: each benchmark profiled in a process of its own, r its measured ratio', async () => {
    const node = await makeWorkspace({ base: { 'two.js': TWO_JS }, head: { 'two.js': TWO_JS } });
    const yml = (extra: string) => `versions:
  - {name: base, path: base}
  - {name: head, path: head}
workload:
  command: node two.js
  format: jsonl
${extra}iterations: 4
warmup: 0
seed: 3
analysis: {resamples: 1000}
profile: {when: always, runs: 2}
`;
    try {
      await writeFile(
        path.join(node, 'one.yml'),
        yml('  benchmarkCommand: node two.js {benchmark}\n'),
      );
      await writeFile(path.join(node, 'all.yml'), yml(''));
      const read = async (out: string) => {
        const ctx = context(node);
        expect(await main(['run', `${out}.yml`, '--out', out], ctx)).toBe(0);
        const file = async (name: string) =>
          JSON.parse(await readFile(path.join(node, out, name), 'utf8'));
        return {
          profiles: (await file('profiles.json')) as ProfilesFile,
          comparison: (await file('comparison.json')) as ComparisonReport,
        };
      };
      const stacksOf = (pair: ProfilePair | undefined) =>
        [pair!.base!, pair!.head!].flatMap((side) => side.chunks.flatMap((c) => c.stacks));

      // one process per benchmark: alpha's profile has no beta in it, and the other way round
      const one = await read('one');
      expect(one.profiles.pairs.map((p) => [p.benchmark, p.scope, p.warning])).toEqual([
        ['alpha', 'benchmark', null],
        ['beta', 'benchmark', null],
      ]);
      const alpha = stacksOf(one.profiles.pairs[0]);
      const beta = stacksOf(one.profiles.pairs[1]);
      expect(totalShare(alpha, /^alphaLoop /)).toBeGreaterThan(0.3);
      expect(totalShare(alpha, /^betaLoop /)).toBe(0);
      expect(totalShare(beta, /^betaLoop /)).toBeGreaterThan(0.3);
      expect(totalShare(beta, /^alphaLoop /)).toBe(0);
      for (const r of one.comparison.results) {
        expect(r.explain).toEqual(expect.objectContaining({ timeRatioSource: 'measured' }));
        expect(r.explain!.timeRatio).toBeCloseTo(1 + r.comparison!.change, 10);
      }

      // without it: one profile of the whole command serves both, r the command's
      const all = await read('all');
      expect(all.profiles.pairs.map((p) => [p.benchmark, p.scope])).toEqual([
        ['alpha', 'command'],
        ['beta', 'command'],
      ]);
      const both = stacksOf(all.profiles.pairs[0]);
      expect(totalShare(both, /^alphaLoop /)).toBeGreaterThan(0.1);
      expect(totalShare(both, /^betaLoop /)).toBeGreaterThan(0.1);
      for (const r of all.comparison.results) {
        expect(r.explain).toEqual(expect.objectContaining({ timeRatioSource: 'command' }));
      }
    } finally {
      await rm(node, { recursive: true, force: true });
    }
  });
});

/** Two benchmarks in one Node program, each its own hot loop; names as arguments pick them. */
const TWO_JS = `function alphaLoop(n) { let h = 0; for (let i = 0; i < n; i++) h = (Math.imul(h, 31) + i) | 0; return h; }
function betaLoop(n) { let h = 1; for (let i = 0; i < n; i++) h = (Math.imul(h, 17) ^ i) | 0; return h; }
const all = { alpha: () => alphaLoop(3e7), beta: () => betaLoop(3e7) };
for (const name of process.argv.length > 2 ? process.argv.slice(2) : Object.keys(all)) {
  const start = performance.now();
  all[name]();
  console.log(JSON.stringify({ name, value: performance.now() - start, unit: 'ms' }));
}
`;
