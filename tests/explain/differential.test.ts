import type { ProfileSide } from '../../src/contracts/profile.js';
import { differential, type DifferentialOptions } from '../../src/explain/differential.js';
import { createRng } from '../../src/stats/rng.js';
import { newcombeInterval } from '../../src/stats/two-proportions.js';
import { CHECKSUM_PROGRAM, slowed, syntheticSide } from '../support/synthetic-profiles.js';

/** A side from folded lines, "a;b;c 12", one chunk per array. */
function side(version: string, ...chunks: string[][]): ProfileSide {
  return {
    version,
    profiler: 'perf',
    workUnit: 'iteration',
    period: 0.001,
    files: [],
    chunks: chunks.map((lines) => ({
      work: 10,
      stacks: lines.map((line) => {
        const [stack, count] = line.split(' ');
        return { frames: stack!.split(';'), count: Number(count) };
      }),
    })),
  };
}

describe('differential: shares', () => {
  const base = side('base', ['main;work;leaf 60', 'main;work 20', 'main;rec;rec;rec 20']);
  const head = side('head', ['main;work;leaf 90', 'main;work 10', 'main;rec;rec;rec 20']);
  const d = differential(base, head, { minChange: 0 });
  const row = (name: string, kind: 'self' | 'total') =>
    d.functions.find((f) => f.name === name && f.kind === kind);

  it('counts self where a function is the leaf and total once per sample', () => {
    expect(d.samples).toEqual({ base: 100, head: 120 });
    expect(row('leaf', 'self')).toMatchObject({ base: 0.6, head: 0.75 });
    expect(row('work', 'self')).toMatchObject({ base: 0.2, head: 10 / 120 });
    expect(row('work', 'total')).toMatchObject({ base: 0.8, head: 100 / 120 });
    // recursion: rec;rec;rec is one sample of rec, not three
    expect(row('rec', 'self')).toMatchObject({ base: 0.2, head: 20 / 120 });
    expect(row('leaf', 'self')!.change).toBeCloseTo(0.15, 12);
  });

  it('tests no total row of a function that is only ever a leaf (it is its self row)', () => {
    expect(row('leaf', 'total')).toBeUndefined();
    expect(row('rec', 'total')).toBeUndefined();
    expect(row('main', 'total')).toBeDefined();
  });

  it('with few chunks uses Newcombe on the counts at the Bonferroni level of the family', () => {
    expect(d.method.interval).toBe('newcombe');
    expect(d.method.tests).toBe(d.functions.length);
    expect(d.method.level).toBeCloseTo(1 - 0.01 / d.method.tests, 14);
    const expected = newcombeInterval(90, 120, 60, 100, d.method.level);
    expect(row('leaf', 'self')).toMatchObject({ lower: expected.lower, upper: expected.upper });
  });

  it('normalises the time per unit of work: contributions of self rows sum to the change', () => {
    // head: 120 samples for the same work as base's 100: 1.2× the time per iteration
    expect(d.timeRatio).toBeCloseTo(1.2, 12);
    expect(d.timeRatioSource).toBe('profile');
    const self = d.functions.filter((f) => f.kind === 'self');
    expect(self.reduce((s, f) => s + f.contribution, 0)).toBeCloseTo(0.2, 12);
    // leaf added 0.75 × 1.2 − 0.6 = 0.3 of base's time: first
    expect(d.functions[0]).toMatchObject({ name: 'leaf', kind: 'self' });
    expect(d.functions[0]!.contribution).toBeCloseTo(0.3, 12);
    const twiceTheWork = differential(base, {
      ...head,
      chunks: [{ ...head.chunks[0]!, work: 20 }],
    });
    expect(twiceTheWork.timeRatio).toBeCloseTo(0.6, 12);
    expect(differential(base, head, { timeRatio: 1.06 })).toMatchObject({
      timeRatio: 1.06,
      timeRatioSource: 'measured',
    });
  });

  it('orders self rows before total rows, each by contribution in the direction of the change', () => {
    const kinds = d.functions.map((f) => f.kind);
    expect(kinds.lastIndexOf('self')).toBeLessThan(kinds.indexOf('total'));
    const self = d.functions.filter((f) => f.kind === 'self').map((f) => f.contribution);
    expect(self).toEqual([...self].sort((a, b) => b - a));
    const faster = differential(head, base, { minChange: 0 });
    const gains = faster.functions.filter((f) => f.kind === 'self').map((f) => f.contribution);
    expect(gains).toEqual([...gains].sort((a, b) => a - b));
    expect(faster.functions[0]!.name).toBe('leaf');
  });

  it('tests only the rows that could reach the minimum change', () => {
    const big = differential(base, head, { minChange: 0.25 });
    expect(big.functions.map((f) => `${f.name} ${f.kind}`).sort()).toEqual(
      ['leaf self', 'main total', 'work total'].sort(),
    );
    expect(big.method.tests).toBe(3);
  });

  it('refuses malformed profiles, naming the field, the value and what is accepted', () => {
    const bad = side('head', ['main 3']);
    bad.chunks[0]!.stacks[0]!.count = -1;
    expect(() => differential(base, bad)).toThrow(
      'head.chunks[0].stacks[0].count: -1; expected an integer ≥ 0',
    );
    const empty = side('head', ['main 3']);
    empty.chunks[0]!.stacks[0]!.frames = [];
    expect(() => differential(base, empty)).toThrow(
      'head.chunks[0].stacks[0].frames: []; expected a non-empty array of frame names, root first',
    );
    expect(() => differential(side('base', ['main 0']), head)).toThrow(
      'base: the profile has no samples',
    );
  });
});

describe('differential: the chunk bootstrap', () => {
  const rng = createRng(5);
  const o = { chunks: 10, samplesPerChunk: 400, jitter: 0.1 };
  const base = syntheticSide(CHECKSUM_PROGRAM, rng, { ...o, version: 'base' });
  const head = syntheticSide(CHECKSUM_PROGRAM, rng, { ...o, version: 'head' });

  it('resamples chunks when each side has enough, never narrower than Newcombe', () => {
    const boot = differential(base, head, { seed: 3 });
    const counts = differential(base, head, { minChunks: 11 });
    expect(boot.method).toMatchObject({ interval: 'bootstrap', resamples: 2000, seed: 3 });
    expect(counts.method).toMatchObject({ interval: 'newcombe', resamples: null });
    for (const [i, f] of boot.functions.entries()) {
      const n = counts.functions[i]!;
      expect(n.name).toBe(f.name);
      expect(f.lower).toBeLessThanOrEqual(n.lower);
      expect(f.upper).toBeGreaterThanOrEqual(n.upper);
    }
    // chunks that vary make the bootstrap's interval of the big share wider than Newcombe's
    const loop = (d: typeof boot) => d.functions.find((f) => f.name === 'checksum_loop')!;
    expect(loop(boot).upper - loop(boot).lower).toBeGreaterThan(
      1.5 * (loop(counts).upper - loop(counts).lower),
    );
    expect(differential(base, head, { seed: 3 })).toEqual(boot);
  });
});

describe('differential: A/A and power (fixed seed; benchmarks/explain.ts runs more)', () => {
  /** Runs `runs` differentials of base against head drawn from `headProgram`. */
  function simulate(
    runs: number,
    chunks: number,
    samplesPerChunk: number,
    headProgram = CHECKSUM_PROGRAM,
    options: DifferentialOptions = {},
  ) {
    const rng = createRng(99 + chunks);
    let flagged = 0;
    let namedFirst = 0;
    for (let i = 0; i < runs; i++) {
      const base = syntheticSide(CHECKSUM_PROGRAM, rng, {
        chunks,
        samplesPerChunk,
        version: 'base',
      });
      const head = syntheticSide(headProgram, rng, { chunks, samplesPerChunk, version: 'head' });
      const called = differential(base, head, { seed: i + 1, ...options }).functions.filter(
        (f) => f.beyondNoise,
      );
      if (called.length > 0) flagged++;
      if (called[0]?.name === 'checksum_loop' && called[0].kind === 'self') namedFirst++;
    }
    return { flagged, namedFirst };
  }

  it('flags nothing in at least 95% of A/A runs, with Newcombe and with the bootstrap', () => {
    expect(simulate(200, 4, 2000).flagged).toBeLessThanOrEqual(10);
    expect(simulate(40, 10, 800).flagged).toBeLessThanOrEqual(2);
  });

  it('needs the family: each row at 99% alone and no minimum size flag many A/A runs', () => {
    // a family level of 1 − 0.33 over ~33 rows leaves each row's own interval at 99%
    const alone = simulate(100, 4, 2000, CHECKSUM_PROGRAM, { familyLevel: 0.67, minChange: 1e-9 });
    expect(alone.flagged).toBeGreaterThan(10);
  });

  it('names a function made 1.15× as heavy first', () => {
    const heavier = slowed(CHECKSUM_PROGRAM, 'checksum_loop', 1.15);
    expect(simulate(40, 4, 5000, heavier).namedFirst).toBeGreaterThanOrEqual(38);
    expect(simulate(20, 10, 5000, heavier).namedFirst).toBeGreaterThanOrEqual(19);
  });
});

describe('differential: the contribution is the call', () => {
  /** CHECKSUM_PROGRAM with checksum_loop's stacks holding `share` of the samples. */
  function holding(share: number) {
    const leaf = (s: { frames: string[] }) => s.frames[s.frames.length - 1] === 'checksum_loop';
    const own = CHECKSUM_PROGRAM.filter(leaf).reduce((w, s) => w + s.weight, 0);
    const rest = 1 - own;
    return CHECKSUM_PROGRAM.map((s) => ({
      frames: s.frames,
      weight: leaf(s) ? (s.weight / own) * share : (s.weight / rest) * (1 - share),
    }));
  }
  const ratioOf = (estimate: number, half: number) => ({
    estimate,
    lower: estimate * Math.exp(-half),
    upper: estimate * Math.exp(half),
    level: 0.99,
  });

  it('names a function holding 65% of the time made 6% slower, whose share barely moves', () => {
    const rng = createRng(17);
    const program = holding(0.65);
    const o = { chunks: 20, jitter: 0.02 };
    const truth = 1 + 0.06 * 0.65;
    let named = 0;
    let shareCalled = 0;
    for (let i = 0; i < 10; i++) {
      const base = syntheticSide(program, rng, { ...o, samplesPerChunk: 1500, version: 'base' });
      const head = syntheticSide(slowed(program, 'checksum_loop', 1.06), rng, {
        ...o,
        samplesPerChunk: Math.round(1500 * truth),
        version: 'head',
      });
      const d = differential(base, head, { seed: i + 1, timeRatio: ratioOf(truth, 0.015) });
      const first = d.functions[0]!;
      expect(first.contributionLower!).toBeLessThanOrEqual(first.contribution);
      expect(first.contributionUpper!).toBeGreaterThanOrEqual(first.contribution);
      if (first.name === 'checksum_loop' && first.beyondNoise) named++;
      if (first.lower > 0) shareCalled++;
      // the self rows' contributions add up to the measured change
      const self = d.functions.filter((f) => f.kind === 'self');
      expect(self.reduce((s, f) => s + f.contribution, 0)).toBeGreaterThan(truth - 1 - 0.02);
    }
    expect(named).toBeGreaterThanOrEqual(9);
    // the change of share alone would have called it far less often
    expect(shareCalled).toBeLessThan(named);
  });

  it('flags nothing in at least 95% of A/A runs with a ratio drawn from an A/A distribution', () => {
    const rng = createRng(29);
    let flagged = 0;
    for (let i = 0; i < 40; i++) {
      const o = { chunks: 10, samplesPerChunk: 800, jitter: 0.1 };
      const base = syntheticSide(CHECKSUM_PROGRAM, rng, { ...o, version: 'base' });
      const head = syntheticSide(CHECKSUM_PROGRAM, rng, { ...o, version: 'head' });
      // the quickstart's spread: a 99% interval of ±1.5%, its centre drawn from it
      const sigma = Math.log(1.015) / 2.5758;
      const r = ratioOf(Math.exp(sigma * rng.nextNormal()), sigma * 2.5758);
      const d = differential(base, head, { seed: i + 1, timeRatio: r });
      if (d.functions.some((f) => f.beyondNoise)) flagged++;
    }
    expect(flagged).toBeLessThanOrEqual(2);
  });

  it('widens each contribution by the ratio’s uncertainty times the share it multiplies', () => {
    const rng = createRng(4);
    const o = { chunks: 10, samplesPerChunk: 800 };
    const base = syntheticSide(CHECKSUM_PROGRAM, rng, { ...o, version: 'base' });
    const head = syntheticSide(CHECKSUM_PROGRAM, rng, { ...o, version: 'head' });
    const exact = differential(base, head, { seed: 2, timeRatio: 1.02 });
    const unsure = differential(base, head, { seed: 2, timeRatio: ratioOf(1.02, 0.02) });
    expect(exact.timeRatioInterval).toBeNull();
    expect(unsure.timeRatioInterval!.level).toBe(unsure.method.level);
    expect(unsure.timeRatioInterval!.upper).toBeGreaterThan(1.02 * Math.exp(0.02));
    const width = (f: { contributionLower?: number; contributionUpper?: number }) =>
      f.contributionUpper! - f.contributionLower!;
    const grow = unsure.functions.map((f, i) => ({
      head: f.head,
      grew: width(f) - width(exact.functions[i]!),
    }));
    for (const g of grow) expect(g.grew).toBeGreaterThanOrEqual(-1e-12);
    const big = grow.reduce((a, b) => (b.head > a.head ? b : a));
    const small = grow.reduce((a, b) => (b.head < a.head ? b : a));
    expect(big.grew).toBeGreaterThan(small.grew);
  });
});
