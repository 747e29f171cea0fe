import { readFileSync } from 'node:fs';
import { chiSquaredSf } from '../../src/stats/chi-squared.js';
import { normalSf } from '../../src/stats/normal.js';

const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/scipy/chi2.json', import.meta.url), 'utf8'),
) as { cases: { x: number; df: number; sf: number }[] };

describe('chiSquaredSf against scipy.stats.chi2.sf', () => {
  it('has cases over both parities, small and far tails', () => {
    expect(fixture.cases.length).toBeGreaterThan(300);
    expect(fixture.cases.some((c) => c.sf < 1e-200)).toBe(true);
    expect(fixture.cases.some((c) => c.sf > 1 - 1e-9)).toBe(true);
  });

  it('matches every reference value to 1e-9 relative', () => {
    let worst = 0;
    for (const c of fixture.cases) {
      const got = chiSquaredSf(c.x, c.df);
      worst = Math.max(worst, Math.abs(got - c.sf) / c.sf);
    }
    expect(worst).toBeLessThanOrEqual(1e-9);
  });

  it('is 2Q(√x) for one degree of freedom and e^{−x/2} for two', () => {
    for (const x of [0.3, 4, 25]) {
      expect(chiSquaredSf(x, 1)).toBeCloseTo(2 * normalSf(Math.sqrt(x)), 15);
      expect(chiSquaredSf(x, 2)).toBeCloseTo(Math.exp(-x / 2), 15);
    }
    expect(chiSquaredSf(0, 5)).toBe(1);
    expect(chiSquaredSf(Infinity, 5)).toBe(0);
  });

  it('refuses a non-integer or zero df, naming it', () => {
    expect(() => chiSquaredSf(1, 0)).toThrow(/df must be an integer ≥ 1, got 0/);
    expect(() => chiSquaredSf(1, 2.5)).toThrow(/got 2.5/);
    expect(() => chiSquaredSf(NaN, 2)).toThrow(/x must be a number/);
  });
});
