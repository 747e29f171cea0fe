import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { kolmogorovSf } from '../../src/stats/kolmogorov.js';
import { ksTwoSample } from '../../src/stats/ks.js';
import type { Alternative } from '../../src/stats/ranks.js';

interface KsCase {
  name: string;
  x: number[];
  y: number[];
  alternative: Alternative;
  method: 'auto' | 'exact' | 'asymp';
  statistic: number;
  pvalue: number;
}

const cases = (
  JSON.parse(readFileSync(new URL('../fixtures/scipy/ks_2samp.json', import.meta.url), 'utf8')) as {
    cases: KsCase[];
  }
).cases;

function relativeError(actual: number, expected: number): number {
  if (actual === expected) return 0;
  return Math.abs(actual - expected) / Math.abs(expected);
}

function run(c: KsCase) {
  const method = c.method === 'asymp' ? 'asymptotic' : c.method;
  return ksTwoSample(c.x, c.y, { alternative: c.alternative, method });
}

describe('ksTwoSample against scipy.stats.ks_2samp', () => {
  it('covers the exact branch, the asymptotic branch and scipy’s overflow fallback', () => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
    expect(cases.some((c) => c.method === 'auto' && c.x.length > 10000)).toBe(true);
    const methods = cases.map((c) => [c.name, run(c).method]);
    expect(methods).toContainEqual(['auto-asymp-10001x40', 'asymptotic']);
    expect(methods).toContainEqual(['overflow-fallback-600x520-greater', 'asymptotic']);
    expect(methods).toContainEqual(['exact-unequal-500x300-greater', 'exact']);
  });

  // Measured worst relative difference: 1.03e-12, in scipy's one-sided unequal-size exact
  // p-values (its alternating path count; exact rational arithmetic agrees with ours to 1e-16).
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const r = run(c);
    expect(relativeError(r.statistic, c.statistic)).toBeLessThanOrEqual(1e-9);
    expect(relativeError(r.pValue, c.pvalue)).toBeLessThanOrEqual(1e-9);
  });
});

/** P(D ≥ d) over all C(n₁+n₂, n₁) orderings of two untied samples. */
function bruteForce(n1: number, n2: number, d: number, alternative: Alternative): number {
  let hits = 0;
  let total = 0;
  const walk = (i: number, j: number, worst: number): void => {
    if (i === n1 && j === n2) {
      total++;
      if (worst >= d - 1e-12) hits++;
      return;
    }
    const step = (a: number, b: number) => {
      const diff = a / n1 - b / n2;
      const value =
        alternative === 'greater' ? diff : alternative === 'less' ? -diff : Math.abs(diff);
      walk(a, b, Math.max(worst, value));
    };
    if (i < n1) step(i + 1, j);
    if (j < n2) step(i, j + 1);
  };
  walk(0, 0, 0);
  return hits / total;
}

const untied = (n: number) =>
  fc.uniqueArray(fc.integer({ min: 0, max: 1000 }), { minLength: n, maxLength: n });

describe('ksTwoSample properties', () => {
  it('exact p-values equal brute-force enumeration of the orderings', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 1, max: 7 }),
        fc.constantFrom<Alternative>('two-sided', 'less', 'greater'),
        fc.integer({ min: 0, max: 2 ** 31 }),
        (n1, n2, alternative, seed) => {
          const values = fc.sample(untied(n1 + n2), { seed, numRuns: 1 })[0]!;
          const r = ksTwoSample(values.slice(0, n1), values.slice(n1), { alternative });
          expect(r.method).toBe('exact');
          expect(r.pValue).toBeCloseTo(bruteForce(n1, n2, r.statistic, alternative), 12);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('the statistic is in [0, 1] and the two-sided test is symmetric', () => {
    const sample = fc.array(fc.integer({ min: -30, max: 30 }), { minLength: 1, maxLength: 25 });
    fc.assert(
      fc.property(sample, sample, (x, y) => {
        const a = ksTwoSample(x, y);
        const b = ksTwoSample(y, x);
        expect(a.statistic).toBeGreaterThanOrEqual(0);
        expect(a.statistic).toBeLessThanOrEqual(1);
        expect(b.statistic).toBe(a.statistic);
        expect(b.pValue).toBeCloseTo(a.pValue, 14);
        expect(a.pValue).toBeGreaterThanOrEqual(0);
        expect(a.pValue).toBeLessThanOrEqual(1);
        const less = ksTwoSample(x, y, { alternative: 'less' });
        expect(ksTwoSample(y, x, { alternative: 'greater' }).pValue).toBeCloseTo(less.pValue, 14);
      }),
    );
  });

  it('separated samples give D = 1 and identical samples give p = 1', () => {
    const x = [1, 2, 3, 4, 5, 6];
    const far = ksTwoSample(x, [11, 12, 13, 14, 15, 16]);
    expect(far.statistic).toBe(1);
    expect(far.pValue).toBeCloseTo(2 / 924, 15);
    expect(far.sign).toBe(1);
    expect(ksTwoSample(x, x)).toMatchObject({ statistic: 0, pValue: 1 });
  });

  it('the Kolmogorov tail is monotone and tends to its limits', () => {
    for (const n of [5, 40, 139, 141, 500, 5000]) {
      let previous = 1;
      for (let x = 0.005; x < 1; x += 0.005) {
        const p = kolmogorovSf(x, n);
        // branches of different exact methods may disagree in the last bits only
        expect(p).toBeLessThanOrEqual(previous + 1e-12);
        previous = p;
      }
      expect(kolmogorovSf(0, n)).toBe(1);
      expect(kolmogorovSf(1, n)).toBe(0);
    }
  });
});

describe('ksTwoSample input checks', () => {
  it('rejects empty samples, NaN and unknown options, naming the argument', () => {
    expect(() => ksTwoSample([], [1])).toThrow(/x must hold at least 1 value\(s\), got 0/);
    expect(() => ksTwoSample([1], [NaN])).toThrow(/y\[0\] must be a finite number, got NaN/);
    expect(() => ksTwoSample([1], [2], { method: 'asymp' as 'exact' })).toThrow(
      /options.method must be one of auto, exact, asymptotic, got "asymp"/,
    );
  });
});
