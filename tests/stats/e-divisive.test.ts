import { readFileSync } from 'node:fs';
import { bestSplit, eDivisive } from '../../src/stats/e-divisive.js';
import { createRng } from '../../src/stats/rng.js';

const read = <T>(name: string): T =>
  JSON.parse(
    readFileSync(new URL(`../fixtures/changepoint/${name}`, import.meta.url), 'utf8'),
  ) as T;

const { series, meta } = read<{ series: Record<string, number[]>; meta: { alpha: number } }>(
  'series.json',
);
interface Tested {
  index: number;
  qhat: number;
  pvalue: number;
  significant: boolean;
  permuted_qhat_quantiles: number[];
}
const otava = read<{
  result: Record<
    string,
    {
      candidates: { start: number; end: number; index: number; qhat: number }[];
      tested: Tested[];
      change_points: number[];
    }
  >;
}>('otava.json').result;
const spa = read<{
  result: Record<
    string,
    {
      candidates: { start: number; end: number; index: number; t: number }[];
      change_points: number[];
    }
  >;
}>('spa.json').result;

const names = Object.keys(series);
// Matteson & James / Otava: κ maximised, U-statistics
const OTAVA = { span: 'any', estimator: 'u' } as const;
// one run per series and variant at the fixtures' level, shared by the comparisons below
const ours = new Map(
  names.map((n) => [
    n,
    eDivisive(series[n]!, { alpha: 0.01, permutations: 999, seed: 17, ...OTAVA }),
  ]),
);
const oursDefault = new Map(
  names.map((n) => [n, eDivisive(series[n]!, { alpha: 0.01, permutations: 999, seed: 17 })]),
);

describe('bestSplit against Apache Otava’s PairDistanceCalculator', () => {
  it.each(names.map((n) => [n] as const))('%s: same τ and q̂ (1e-9) on every interval', (name) => {
    for (const c of otava[name]!.candidates) {
      const got = bestSplit(series[name]!, c.start, c.end, OTAVA)!;
      expect(got.index).toBe(c.index);
      expect(Math.abs(got.qhat - c.qhat)).toBeLessThanOrEqual(1e-9 * Math.abs(c.qhat));
    }
  });

  it('is the brute-force maximum of q̂ over (τ, κ)', () => {
    const rng = createRng(5);
    for (let r = 0; r < 20; r++) {
      const z = Array.from({ length: 3 + r }, () => rng.nextNormal() + (r % 3 === 0 ? 0 : 1));
      const got = bestSplit(z, 0, z.length, OTAVA)!;
      let best = -Infinity;
      for (let t = 1; t < z.length; t++) {
        for (let k = t + 1; k <= z.length; k++)
          best = Math.max(best, naiveQ(z.slice(0, t), z.slice(t, k)));
      }
      expect(got.qhat).toBeCloseTo(best, 10);
    }
  });
});

/** Matteson & James' q̂ straight from the definition. */
function naiveQ(x: number[], y: number[]): number {
  const n = x.length;
  const m = y.length;
  let cross = 0;
  for (const a of x) for (const b of y) cross += Math.abs(a - b);
  const within = (v: number[]) => {
    let s = 0;
    for (let i = 0; i < v.length; i++)
      for (let j = i + 1; j < v.length; j++) s += Math.abs(v[i]! - v[j]!);
    return s;
  };
  let q = (2 * cross) / (n + m);
  if (n > 1) q -= (2 * m * within(x)) / ((n + m) * (n - 1));
  if (m > 1) q -= (2 * n * within(y)) / ((n + m) * (m - 1));
  return q;
}

describe('bestSplit against signal-processing-algorithms’ t statistics (its C extension)', () => {
  it.each(names.map((n) => [n] as const))('%s: same τ and t (1e-9) on every interval', (name) => {
    for (const c of spa[name]!.candidates) {
      const got = bestSplit(series[name]!, c.start, c.end, { span: 'segment', estimator: 'v' })!;
      expect(got.index).toBe(c.index);
      expect(got.end).toBe(c.end);
      expect(Math.abs(got.qhat - c.t)).toBeLessThanOrEqual(1e-9 * Math.abs(c.t));
    }
  });
});

describe('eDivisive against Otava’s and signal-processing-algorithms’ E-Divisive', () => {
  it('uses the fixtures’ significance level', () => {
    expect(meta.alpha).toBe(0.01);
  });

  it.each(names.map((n) => [n] as const))('%s: the same change points as Otava', (name) => {
    const got = ours.get(name)!;
    expect(got.changePoints.map((c) => c.index)).toEqual(otava[name]!.change_points);
    // each significant test: the same candidate; the stopping one: the same candidate, and a
    // p-value on the same side of alpha
    const tested = [...got.changePoints].sort((a, b) => b.qhat - a.qhat);
    const theirs = otava[name]!.tested;
    expect(
      theirs
        .filter((t) => t.significant)
        .map((t) => t.index)
        .sort((a, b) => a - b),
    ).toEqual(got.changePoints.map((c) => c.index));
    const stop = theirs.find((t) => !t.significant);
    if (stop !== undefined) {
      expect(got.rejected?.index).toBe(stop.index);
      expect(got.rejected!.qhat).toBeCloseTo(stop.qhat, 9);
      expect(got.rejected!.pValue).toBeGreaterThan(0.01);
    }
    expect(tested.length).toBe(got.changePoints.length);
  });

  it.each(names.map((n) => [n] as const))(
    '%s: by default, the change points of signal-processing-algorithms',
    (name) => {
      const got = oursDefault.get(name)!;
      expect(got).toMatchObject({ span: 'segment', estimator: 'v' });
      expect(got.changePoints.map((c) => c.index)).toEqual(spa[name]!.change_points);
    },
  );

  it.each(names.map((n) => [n] as const))(
    '%s: the two forms find the same steps (within 2 points)',
    (name) => {
      const a = ours.get(name)!.changePoints;
      const b = oursDefault.get(name)!.changePoints;
      expect(a.length).toBe(b.length);
      a.forEach((c, i) => expect(Math.abs(c.index - b[i]!.index)).toBeLessThanOrEqual(2));
    },
  );

  it('p-values of the stopping test agree with Otava’s within Monte Carlo error', () => {
    // series of a dozen values have few distinct arrangements, many reaching the candidate's
    // q̂ exactly; Otava counts them by floating-point ≥, which rounding breaks (0.144 where
    // exact enumeration gives 0.2 for short-5): those are checked by enumeration below
    for (const name of names.filter((n) => series[n]!.length >= 20)) {
      const stop = otava[name]!.tested.find((t) => !t.significant);
      if (stop === undefined) continue;
      // full permutation count: draw them all by asking for a level no test can miss
      const r = eDivisive(series[name]!, {
        alpha: 0.999,
        permutations: 499,
        seed: 3,
        maxChangePoints: otava[name]!.change_points.length + 1,
        ...OTAVA,
      });
      const same = [...r.changePoints, ...(r.rejected ? [r.rejected] : [])].find(
        (c) => c.index === stop.index,
      );
      expect(same).toBeDefined();
      const p = stop.pvalue;
      // both are estimates: Otava's from 999 permutations, ours from 499
      const se = Math.sqrt(p * (1 - p) * (1 / 999 + 1 / 499));
      expect(Math.abs(same!.pValue - p)).toBeLessThanOrEqual(5 * se + 2 / 500);
    }
  });
});

describe('eDivisive', () => {
  it('on a short series, the permutation p-value is the exact one within Monte Carlo error', () => {
    const z = series['short-5']!;
    const observed = bestSplit(z, 0, z.length, OTAVA)!.qhat;
    let reach = 0;
    let all = 0;
    const visit = (rest: number[], prefix: number[]): void => {
      if (rest.length === 0) {
        all++;
        if (bestSplit(prefix, 0, prefix.length, OTAVA)!.qhat >= observed * (1 - 1e-12)) reach++;
        return;
      }
      rest.forEach((v, i) => visit([...rest.slice(0, i), ...rest.slice(i + 1)], [...prefix, v]));
    };
    visit(z, []);
    const exact = reach / all;
    expect(exact).toBeCloseTo(0.2, 10); // the two large values together at either end
    const r = eDivisive(z, {
      alpha: 0.999,
      permutations: 999,
      seed: 4,
      maxChangePoints: 1,
      ...OTAVA,
    });
    const p = r.changePoints[0]!.pValue;
    expect(Math.abs(p - exact)).toBeLessThanOrEqual(4 * Math.sqrt((exact * (1 - exact)) / 999));
  });

  it('is reproducible from its seed and records how it tested', () => {
    const z = series['two-steps']!;
    const a = eDivisive(z, { seed: 9 });
    expect(eDivisive(z, { seed: 9 })).toEqual(a);
    expect(a).toMatchObject({
      alpha: 0.01,
      permutations: 499,
      seed: 9,
      power: 1,
      method: 'e-divisive',
    });
    expect(a.changePoints.every((c) => c.permutations === 499 && c.pValue <= 0.01)).toBe(true);
  });

  it('stops drawing permutations once a test cannot pass', () => {
    const r = eDivisive(series['noise-120']!, { seed: 2 });
    expect(r.changePoints).toEqual([]);
    expect(r.rejected!.permutations).toBeLessThan(499);
  });

  it('handles constant series and tiny inputs, and names bad options', () => {
    expect(eDivisive([5, 5, 5, 5, 5, 5]).changePoints).toEqual([]);
    expect(eDivisive([1]).changePoints).toEqual([]);
    expect(() => eDivisive([], {})).toThrow(/series must hold at least 1/);
    expect(() => eDivisive([1, 2], { alpha: 0 })).toThrow(/alpha must be in \(0, 1\), got 0/);
    expect(() => eDivisive([1, 2], { permutations: 0.5 })).toThrow(
      /permutations must be an integer/,
    );
    expect(() => eDivisive([1, 2], { power: 2 })).toThrow(/power must be in \(0, 2\)/);
  });
});
