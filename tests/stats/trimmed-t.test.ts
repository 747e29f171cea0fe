import { readFileSync } from 'node:fs';
import { compare } from '../../src/stats/compare.js';
import { winsorized } from '../../src/stats/trimmed-mean.js';

// Reference p-values from scipy (tests/fixtures/scipy/make_trimmed_t.py).
const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/scipy/trimmed_t.json', import.meta.url), 'utf8'),
) as { cases: { values: number[]; t: number; df: number; p: number; ci99: [number, number] }[] };

/** Pairs whose log ratios are exactly `d`: base 1, head e^d. */
function paired(d: readonly number[], options: Parameters<typeof compare>[2] = {}) {
  return compare(
    d.map(() => 1),
    d.map((x) => Math.exp(x)),
    { paired: true, statistic: 'trimmed', blockLength: 1, test: 'trimmed-t', ...options },
  );
}

describe('the trimmed-t test of a suite look (scipy: trim_mean / mstats.trimmed_stde, t.sf)', () => {
  it('matches scipy on every case', () => {
    expect(fixture.cases.length).toBeGreaterThanOrEqual(30);
    for (const c of fixture.cases) {
      const got = paired(c.values);
      expect(got.test.name).toBe('trimmed-t');
      expect(got.test.statistic).toBeCloseTo(c.t, 8);
      if (c.p < 1e-250) expect(got.test.pValue).toBeLessThan(1e-250);
      else expect(Math.abs(got.test.pValue - c.p) / c.p).toBeLessThan(1e-6);
      expect(got.test.pValue).toBeGreaterThan(0);
    }
  });

  it('rejects at 1% exactly when the 99% interval excludes 0 (it is the test the interval inverts)', () => {
    for (const c of fixture.cases) {
      const excludes = c.ci99[0] > 0 || c.ci99[1] < 0;
      expect(c.p < 0.01).toBe(excludes);
      expect(paired(c.values).test.pValue < 0.01).toBe(excludes);
    }
  });

  it('has no floor from the sample size: 20 clear pairs reach what Holm over 100 benchmarks needs', () => {
    // every pair +38% ± 1%: the exact rank test of 20 pairs can never go below 2/2^20
    const d = Array.from({ length: 20 }, (_, i) => Math.log(1.38) + ((i % 5) - 2) * 0.005);
    const t = paired(d);
    const rank = paired(d, { test: 'rank' });
    expect(rank.test.pValue).toBeGreaterThanOrEqual(2 / 2 ** 20 - 1e-12);
    // a first look spends w = 0.1 of α = 0.01 and Holm multiplies by up to 100
    expect((t.test.pValue / 0.1) * 100).toBeLessThan(0.01);
  });

  it('says p = 1 below five effective pairs, and refuses an unknown test', () => {
    expect(paired([0.1, 0.2, 0.15]).test.pValue).toBe(1);
    expect(() => paired([0.1, 0.2, 0.15, 0.1, 0.3], { test: 'sign' as 'rank' })).toThrow(
      'test must be rank or trimmed-t, got sign',
    );
  });
});

describe('winsorized', () => {
  it('clamps the ⌊γn⌋ lowest and highest to their neighbours, keeping the order', () => {
    expect(winsorized([5, -40, 1, 2, 3, 90, 4, 0, 6, 7], 0.2)).toEqual([
      5, 1, 1, 2, 3, 6, 4, 1, 6, 6,
    ]);
    expect(winsorized([3, 1, 2], 0.2)).toEqual([3, 1, 2]);
    expect(() => winsorized([1, 2], 0.5)).toThrow('trim proportion must be in [0, 0.5), got 0.5');
  });
});
