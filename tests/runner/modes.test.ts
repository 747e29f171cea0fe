import { getMode } from '../../src/runner/modes/registry.js';
import { runScenario } from '../../src/pipeline/local-run.js';
import { createRng } from '../../src/stats/rng.js';
import { loadedScenario, makeWorkspace, never, removeWorkspace } from './helpers.js';

const plan = (mode: 'duet' | 'rmit' | 'mit' | 'mct' | 'single', seed = 1, versionCount = 3) => [
  ...getMode(mode).plan({ versionCount, warmup: 1, rounds: 3, rng: createRng(seed) }),
];

describe('mode plans', () => {
  it('rmit: every round is a fresh permutation, reproducible from the seed', () => {
    const steps = plan('rmit', 42);
    const rounds = [0, 1, 2, 3].map((r) =>
      steps.filter((s) => s.round === r).map((s) => s.versions[0]),
    );
    for (const order of rounds) expect([...order].sort()).toEqual([0, 1, 2]);
    expect(plan('rmit', 42)).toEqual(steps);
    const orders = new Set(
      Array.from({ length: 20 }, (_, seed) => JSON.stringify(plan('rmit', seed))),
    );
    expect(orders.size).toBeGreaterThan(10);
    expect(steps.filter((s) => s.endsRound).length).toBe(4);
  });

  it('mit: a fixed order; mct: all trials of one version, then the next; single: one each', () => {
    expect(plan('mit').map((s) => s.versions[0])).toEqual([0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2]);
    expect(plan('mct').map((s) => s.versions[0])).toEqual([0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]);
    expect(plan('mct').map((s) => s.warmup)).toEqual(
      Array(3).fill([true, false, false, false]).flat(),
    );
    expect(plan('single').map((s) => [s.versions[0], s.warmup])).toEqual([
      [0, true],
      [0, false],
      [1, true],
      [1, false],
      [2, true],
      [2, false],
    ]);
  });

  it('duet: all versions at once, slots and the late starter drawn per round', () => {
    const steps = plan('duet', 5, 2);
    expect(steps.every((s) => s.versions.join() === '0,1')).toBe(true);
    expect(steps.every((s) => [...s.slots].sort().join() === '0,1')).toBe(true);
    expect(steps.every((s) => [...s.stagger!].sort().join() === '0,1')).toBe(true);
    const lateOnes = plan('duet', 5, 3).map((s) => s.stagger!.indexOf(2));
    expect(new Set(lateOnes).size).toBeGreaterThan(1);
    // Sequential designs run one version at a time: nothing to stagger.
    expect(plan('rmit', 5).every((s) => s.stagger === undefined)).toBe(true);
  });
});

describe('rmit run', () => {
  let root: string;
  beforeAll(async () => {
    root = await makeWorkspace({
      a: { 'x.sh': 'sleep 0.01\n' },
      b: { 'x.sh': 'sleep 0.01\n' },
      c: { 'x.sh': 'sleep 0.01\n' },
    });
  });
  afterAll(() => removeWorkspace(root));

  const run = (seed: number, mode: 'rmit' | 'mct' = 'rmit') =>
    runScenario(
      loadedScenario(
        {
          mode,
          versions: ['a', 'b', 'c'].map((name) => ({ name, path: name })),
          workload: { command: 'sh x.sh' },
          iterations: 6,
          warmup: 1,
          seed,
        },
        root,
      ),
      { signal: never, env: process.env },
    );

  it('records the order it actually used, which the seed reproduces', async () => {
    const first = await run(11);
    expect(first.error).toBeNull();
    expect(first.seed).toBe(11);
    expect(first.order).toHaveLength(7);
    // The recorded order is the plan drawn from the recorded seed...
    const fromSeed = [
      ...getMode('rmit').plan({ versionCount: 3, warmup: 1, rounds: 6, rng: createRng(11) }),
    ];
    const names = ['a', 'b', 'c'];
    for (const entry of first.order) {
      const steps = fromSeed
        .filter((s) => s.round === entry.round)
        .map((s) => names[s.versions[0]!]);
      expect(entry.versions).toEqual(steps);
      expect(entry.warmup).toBe(entry.round === 0);
    }
    // ...and the trials really ran in that order.
    for (const entry of first.order) {
      const started = first.trials
        .filter((t) => t.round === entry.round)
        .sort((x, y) => x.startMs - y.startMs)
        .map((t) => names[t.version]);
      expect(started).toEqual(entry.versions);
    }
    const again = await run(11);
    expect(again.order).toEqual(first.order);
    expect((await run(12)).order).not.toEqual(first.order);
  });

  it('mct runs one version after the other', async () => {
    const samples = await run(1, 'mct');
    const versions = [...samples.trials]
      .sort((x, y) => x.startMs - y.startMs)
      .map((t) => t.version);
    expect(versions).toEqual([0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2]);
    expect(samples.isolation.slots).toHaveLength(1);
  });
});
