import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { kruskalWallis } from '../../src/stats/kruskal.js';
import { mannWhitneyU } from '../../src/stats/mann-whitney.js';

const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/scipy/kruskal.json', import.meta.url), 'utf8'),
) as { cases: { name: string; groups: number[][]; statistic: number; pvalue: number }[] };

const relative = (a: number, b: number): number => (a === b ? 0 : Math.abs(a - b) / Math.abs(b));

describe('kruskalWallis against scipy.stats.kruskal', () => {
  it('has continuous, tied, unequal and tiny-p cases', () => {
    expect(fixture.cases.length).toBeGreaterThanOrEqual(15);
    expect(fixture.cases.some((c) => c.pvalue < 1e-30)).toBe(true);
    expect(fixture.cases.some((c) => c.name.startsWith('ties'))).toBe(true);
  });

  it.each(fixture.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const r = kruskalWallis(c.groups);
    expect(relative(r.statistic, c.statistic)).toBeLessThanOrEqual(1e-9);
    expect(relative(r.pValue, c.pvalue)).toBeLessThanOrEqual(1e-9);
    expect(r.df).toBe(c.groups.length - 1);
  });

  it('says p = 1 when every value is the same (scipy: NaN) and refuses one group', () => {
    expect(
      kruskalWallis([
        [1, 1, 1],
        [1, 1],
      ]),
    ).toMatchObject({ statistic: 0, pValue: 1 });
    expect(() => kruskalWallis([[1, 2, 3]])).toThrow(/at least 2 groups, got 1/);
    expect(() => kruskalWallis([[1, 2], []])).toThrow(/groups\[1\] must hold at least 1/);
  });

  it('is invariant under a monotone transform and the order of the groups', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 12 }), {
          minLength: 2,
          maxLength: 6,
        }),
        (groups) => {
          const a = kruskalWallis(groups);
          const b = kruskalWallis([...groups].reverse().map((g) => g.map((v) => Math.log(v))));
          expect(b.statistic).toBeCloseTo(a.statistic, 9);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('for two groups, H equals z² of the Mann–Whitney normal approximation', () => {
    const x = [3.1, 4.5, 2.2, 8.0, 5.5, 6.1, 7.2, 1.1, 9.4, 3.3];
    const y = [5.0, 6.6, 9.9, 10.2, 7.7, 8.8, 11.5, 4.4, 12.0];
    const h = kruskalWallis([x, y]);
    const u = mannWhitneyU(x, y, { method: 'asymptotic', useContinuity: false });
    expect(h.pValue).toBeCloseTo(u.pValue, 12);
  });
});
