import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { mannWhitneyExactSf, mannWhitneyU } from '../../src/stats/mann-whitney.js';
import type { Alternative } from '../../src/stats/ranks.js';

interface MwuCase {
  name: string;
  x: number[];
  y: number[];
  alternative: Alternative;
  method: 'auto' | 'exact' | 'asymptotic';
  use_continuity: boolean;
  statistic: number;
  pvalue: number;
}

const cases = (
  JSON.parse(
    readFileSync(new URL('../fixtures/scipy/mannwhitneyu.json', import.meta.url), 'utf8'),
  ) as { cases: MwuCase[] }
).cases;

function relativeError(actual: number, expected: number): number {
  if (actual === expected) return 0;
  return Math.abs(actual - expected) / Math.abs(expected);
}

describe('mannWhitneyU against scipy.stats.mannwhitneyu', () => {
  it('covers the exact, asymptotic and tied branches', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
    const methods = new Set(cases.map((c) => mannWhitneyU(c.x, c.y, optionsOf(c)).method));
    expect(methods).toEqual(new Set(['exact', 'asymptotic']));
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const r = mannWhitneyU(c.x, c.y, optionsOf(c));
    expect(relativeError(r.statistic, c.statistic)).toBeLessThanOrEqual(1e-9);
    expect(relativeError(r.pValue, c.pvalue)).toBeLessThanOrEqual(1e-9);
  });

  it('uses scipy 1.17 auto rule: exact iff no ties and min(n₁, n₂) ≤ 8', () => {
    const eight = [1, 2, 3, 4, 5, 6, 7, 8];
    const nine = [...eight, 9].map((v) => v + 0.5);
    expect(mannWhitneyU(eight, [...nine, 20, 21]).method).toBe('exact');
    expect(mannWhitneyU([...eight, 30], nine).method).toBe('asymptotic');
    expect(mannWhitneyU([1, 2, 3], [3, 4, 5]).method).toBe('asymptotic');
  });
});

function optionsOf(c: MwuCase) {
  return { alternative: c.alternative, method: c.method, useContinuity: c.use_continuity };
}

/** P(U ≥ u) by listing every way to choose which ranks belong to x. */
function bruteForceSf(u: number, n1: number, n2: number): number {
  let hits = 0;
  let total = 0;
  const visit = (next: number, left: number, rankSum: number): void => {
    if (left === 0) {
      total++;
      if (rankSum - (n1 * (n1 + 1)) / 2 >= u) hits++;
      return;
    }
    for (let r = next; r <= n1 + n2 - left + 1; r++) visit(r + 1, left - 1, rankSum + r);
  };
  visit(1, n1, 0);
  return hits / total;
}

const sample = fc.array(fc.integer({ min: -20, max: 20 }), { minLength: 1, maxLength: 15 });

describe('mannWhitneyU properties', () => {
  it('exact null distribution equals brute-force enumeration', () => {
    for (const [n1, n2] of [
      [1, 1],
      [2, 5],
      [4, 4],
      [3, 7],
      [6, 5],
    ] as const) {
      for (let u = 0; u <= n1 * n2 + 1; u++) {
        expect(mannWhitneyExactSf(u, n1, n2)).toBeCloseTo(bruteForceSf(u, n1, n2), 14);
      }
    }
  });

  it('keeps tiny exact tails to full relative precision', () => {
    // P(U ≥ 2500) for 50 vs 50 is 1/C(100, 50)
    expect(
      relativeError(mannWhitneyExactSf(2500, 50, 50), 1 / Number(100891344545564193334812497256n)),
    ).toBeLessThan(1e-14);
  });

  it('U_x + U_y = n·m and swapping the samples keeps the two-sided p', () => {
    fc.assert(
      fc.property(sample, sample, (x, y) => {
        const a = mannWhitneyU(x, y);
        const b = mannWhitneyU(y, x);
        expect(a.statistic + b.statistic).toBe(x.length * y.length);
        expect(a.pValue).toBeCloseTo(b.pValue, 14);
        expect(a.pValue).toBeGreaterThanOrEqual(0);
        expect(a.pValue).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('less for (x, y) is greater for (y, x)', () => {
    fc.assert(
      fc.property(sample, sample, (x, y) => {
        const less = mannWhitneyU(x, y, { alternative: 'less' }).pValue;
        expect(mannWhitneyU(y, x, { alternative: 'greater' }).pValue).toBeCloseTo(less, 14);
      }),
    );
  });

  it('shifting both samples by the same amount changes nothing', () => {
    fc.assert(
      fc.property(sample, sample, fc.integer({ min: -1000, max: 1000 }), (x, y, shift) => {
        const a = mannWhitneyU(x, y);
        const b = mannWhitneyU(
          x.map((v) => v + shift),
          y.map((v) => v + shift),
        );
        expect(b).toEqual(a);
      }),
    );
  });

  it('a clear shift is significant and a one-sided test points the right way', () => {
    const x = [1.1, 2.3, 3.2, 4.8, 5.1, 6.6, 7.4];
    const y = x.map((v) => v + 10);
    expect(mannWhitneyU(x, y).pValue).toBeLessThan(0.001);
    expect(mannWhitneyU(x, y, { alternative: 'less' }).pValue).toBeLessThan(0.001);
    expect(mannWhitneyU(x, y, { alternative: 'greater' }).pValue).toBe(1);
  });

  it('gives p = 1 when every value is tied', () => {
    expect(mannWhitneyU([2, 2], [2, 2, 2], { useContinuity: false }).pValue).toBe(1);
  });
});

describe('mannWhitneyU input checks', () => {
  it('rejects empty samples, NaN and unknown options, naming the argument', () => {
    expect(() => mannWhitneyU([], [1])).toThrow(/x must hold at least 1 value\(s\), got 0/);
    expect(() => mannWhitneyU([1], [])).toThrow(RangeError);
    expect(() => mannWhitneyU([1], [2, NaN])).toThrow(/y\[1\] must be a finite number, got NaN/);
    expect(() => mannWhitneyU([1], [2], { alternative: 'bigger' as Alternative })).toThrow(
      /options.alternative must be one of two-sided, less, greater, got "bigger"/,
    );
    expect(() => mannWhitneyU([1], [2], { method: 'fast' as 'exact' })).toThrow(/options.method/);
  });
});
