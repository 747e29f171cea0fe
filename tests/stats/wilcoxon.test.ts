import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import type { Alternative } from '../../src/stats/ranks.js';
import { wilcoxonSignedRank } from '../../src/stats/wilcoxon.js';

interface WilcoxonCase {
  name: string;
  d: number[];
  alternative: Alternative;
  method: 'auto' | 'exact' | 'asymptotic';
  correction: boolean;
  statistic: number;
  pvalue: number;
}

const cases = (
  JSON.parse(readFileSync(new URL('../fixtures/scipy/wilcoxon.json', import.meta.url), 'utf8')) as {
    cases: WilcoxonCase[];
  }
).cases;

function relativeError(actual: number, expected: number): number {
  if (actual === expected) return 0;
  return Math.abs(actual - expected) / Math.abs(expected);
}

function run(c: WilcoxonCase) {
  return wilcoxonSignedRank(c.d, {
    alternative: c.alternative,
    method: c.method,
    correction: c.correction,
  });
}

describe('wilcoxonSignedRank against scipy.stats.wilcoxon', () => {
  it('covers the exact, permutation and asymptotic branches', () => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
    expect(new Set(cases.map((c) => run(c).method))).toEqual(
      new Set(['exact', 'permutation', 'asymptotic']),
    );
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const r = run(c);
    expect(relativeError(r.statistic, c.statistic)).toBeLessThanOrEqual(1e-9);
    expect(relativeError(r.pValue, c.pvalue)).toBeLessThanOrEqual(1e-9);
    expect(r.n).toBe(c.d.filter((v) => v !== 0).length);
  });

  it('follows scipy 1.17 auto rule', () => {
    const distinct = (n: number) => Array.from({ length: n }, (_, i) => (i % 2 ? 1 : -1) * (i + 1));
    expect(wilcoxonSignedRank(distinct(50)).method).toBe('exact');
    expect(wilcoxonSignedRank(distinct(51)).method).toBe('asymptotic');
    expect(wilcoxonSignedRank([...distinct(12), 0]).method).toBe('permutation');
    expect(wilcoxonSignedRank([...distinct(13), 0]).method).toBe('asymptotic');
    expect(wilcoxonSignedRank([...distinct(12), 12]).method).toBe('permutation');
  });
});

/** P(R⁺ ≤ r) and P(R⁺ ≥ r) over all 2ⁿ sign patterns of the given ranks. */
function bruteForce(ranks: number[], r: number): { less: number; greater: number } {
  let less = 0;
  let greater = 0;
  const total = 2 ** ranks.length;
  for (let mask = 0; mask < total; mask++) {
    let s = 0;
    ranks.forEach((rank, i) => {
      if (mask & (1 << i)) s += rank;
    });
    if (s <= r) less++;
    if (s >= r) greater++;
  }
  return { less: less / total, greater: greater / total };
}

const differences = fc.array(fc.integer({ min: -6, max: 6 }), { minLength: 1, maxLength: 12 });

describe('wilcoxonSignedRank properties', () => {
  it('exact and permutation p-values equal brute-force enumeration', () => {
    fc.assert(
      fc.property(differences, (d) => {
        const nonZero = d.filter((v) => v !== 0);
        const abs = nonZero.map(Math.abs);
        const ranks = abs.map(
          (v) => abs.filter((w) => w < v).length + (abs.filter((w) => w === v).length + 1) / 2,
        );
        const rPlus = ranks.reduce((s, r, i) => s + (nonZero[i]! > 0 ? r : 0), 0);
        const want = bruteForce(ranks, rPlus);
        const got = (alternative: Alternative) =>
          wilcoxonSignedRank(d, { alternative, method: 'permutation' }).pValue;
        expect(got('less')).toBeCloseTo(want.less, 14);
        expect(got('greater')).toBeCloseTo(want.greater, 14);
        expect(got('two-sided')).toBeCloseTo(
          Math.min(1, 2 * Math.min(want.less, want.greater)),
          14,
        );
      }),
    );
  });

  it('without ties the permutation distribution is the exact one', () => {
    const d = [0.3, -1.2, 2.5, 4.1, -0.7, 5.5, 6.25, 7.5, -8.5, 9.75];
    for (const alternative of ['two-sided', 'less', 'greater'] as const) {
      expect(wilcoxonSignedRank(d, { alternative, method: 'permutation' }).pValue).toBe(
        wilcoxonSignedRank(d, { alternative, method: 'exact' }).pValue,
      );
    }
  });

  it('negating d keeps the two-sided p and swaps the one-sided ones', () => {
    fc.assert(
      fc.property(differences, (d) => {
        const neg = d.map((v) => -v);
        expect(wilcoxonSignedRank(neg).pValue).toBeCloseTo(wilcoxonSignedRank(d).pValue, 14);
        expect(wilcoxonSignedRank(neg, { alternative: 'less' }).pValue).toBeCloseTo(
          wilcoxonSignedRank(d, { alternative: 'greater' }).pValue,
          14,
        );
      }),
    );
  });

  it('p is a probability and positive scaling changes nothing', () => {
    fc.assert(
      fc.property(differences, fc.integer({ min: 1, max: 64 }), (d, k) => {
        const a = wilcoxonSignedRank(d);
        expect(a.pValue).toBeGreaterThanOrEqual(0);
        expect(a.pValue).toBeLessThanOrEqual(1);
        expect(wilcoxonSignedRank(d.map((v) => v * k))).toEqual(a);
      }),
    );
  });

  it('finds a consistent 5 % slowdown in log ratios', () => {
    const d = [0.048, 0.051, 0.046, 0.055, 0.049, 0.052, 0.047, 0.05, 0.053, 0.054];
    const r = wilcoxonSignedRank(d, { alternative: 'greater' });
    expect(r.pValue).toBe(2 ** -10);
    expect(r.statistic).toBe(55);
  });

  it('gives p = 1 when every difference is zero', () => {
    expect(wilcoxonSignedRank([0, 0, 0])).toEqual({
      statistic: 0,
      pValue: 1,
      method: 'permutation',
      n: 0,
    });
  });
});

describe('wilcoxonSignedRank input checks', () => {
  it('rejects empty input, NaN and unknown options, naming the argument', () => {
    expect(() => wilcoxonSignedRank([])).toThrow(/d must hold at least 1 value\(s\), got 0/);
    expect(() => wilcoxonSignedRank([0.1, NaN])).toThrow(/d\[1\] must be a finite number/);
    expect(() => wilcoxonSignedRank([0.1], { method: 'fast' as 'exact' })).toThrow(
      /options.method must be one of auto, exact, asymptotic, permutation, got "fast"/,
    );
  });
});
