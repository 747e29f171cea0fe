import { readFileSync } from 'node:fs';
import { wilsonInterval } from '../../src/stats/proportion.js';

interface Case {
  successes: number;
  trials: number;
  level: number;
  lower: number;
  upper: number;
}

const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/scipy/proportion.json', import.meta.url), 'utf8'),
) as { cases: Case[] };

describe('wilsonInterval against statsmodels proportion_confint(method="wilson")', () => {
  it('has reference cases at 0 and n successes and at three levels', () => {
    expect(fixture.cases.length).toBeGreaterThan(100);
    expect(fixture.cases.some((c) => c.successes === 0 && c.trials === 20)).toBe(true);
    expect(fixture.cases.some((c) => c.successes === c.trials && c.trials === 1000)).toBe(true);
  });

  it('matches every reference interval to 1e-12', () => {
    for (const c of fixture.cases) {
      const got = wilsonInterval(c.successes, c.trials, c.level);
      expect(Math.abs(got.lower - c.lower)).toBeLessThanOrEqual(1e-12);
      expect(Math.abs(got.upper - c.upper)).toBeLessThanOrEqual(1e-12);
    }
  });

  it('reports the estimate and refuses impossible counts, naming them', () => {
    expect(wilsonInterval(3, 12, 0.99)).toMatchObject({ estimate: 0.25, level: 0.99 });
    expect(wilsonInterval(0, 0)).toMatchObject({ lower: 0, upper: 1 });
    expect(() => wilsonInterval(5, 4)).toThrow(
      /successes must be an integer from 0 to trials \(4\), got 5/,
    );
    expect(() => wilsonInterval(1, 2.5)).toThrow(/trials must be an integer ≥ 0, got 2.5/);
    expect(() => wilsonInterval(1, 2, 1)).toThrow(/level must be in \(0, 1\), got 1/);
  });
});
