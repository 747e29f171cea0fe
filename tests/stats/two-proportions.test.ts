import { readFileSync } from 'node:fs';
import { newcombeInterval } from '../../src/stats/two-proportions.js';

interface Case {
  k1: number;
  n1: number;
  k2: number;
  n2: number;
  level: number;
  lower: number;
  upper: number;
}

const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/scipy/two_proportions.json', import.meta.url), 'utf8'),
) as { cases: Case[] };

describe('newcombeInterval against statsmodels confint_proportions_2indep(method="newcomb")', () => {
  it('has reference cases at the edges, at a million samples and at Bonferroni levels', () => {
    expect(fixture.cases.length).toBeGreaterThan(300);
    expect(fixture.cases.some((c) => c.k1 === 0 && c.k2 === c.n2)).toBe(true);
    expect(fixture.cases.some((c) => c.n1 === 1_000_000 && c.level === 0.9999)).toBe(true);
  });

  it('matches every reference interval to 1e-10', () => {
    let worst = 0;
    let estimate = 0;
    for (const c of fixture.cases) {
      const got = newcombeInterval(c.k1, c.n1, c.k2, c.n2, c.level);
      worst = Math.max(worst, Math.abs(got.lower - c.lower), Math.abs(got.upper - c.upper));
      estimate = Math.max(estimate, Math.abs(got.estimate - (c.k1 / c.n1 - c.k2 / c.n2)));
    }
    expect(worst).toBeLessThanOrEqual(1e-10);
    expect(estimate).toBe(0);
  });

  it('is symmetric in the order of the sides and refuses a side without trials', () => {
    const a = newcombeInterval(30, 400, 12, 380, 0.99);
    const b = newcombeInterval(12, 380, 30, 400, 0.99);
    expect(a.lower).toBeCloseTo(-b.upper, 14);
    expect(a.upper).toBeCloseTo(-b.lower, 14);
    expect(() => newcombeInterval(0, 0, 1, 2)).toThrow(
      /both proportions need at least one trial, got trials 0 and 2/,
    );
  });
});
