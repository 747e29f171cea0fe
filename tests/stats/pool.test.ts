import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { poolEstimates, type IntervalEstimate } from '../../src/stats/pool.js';

interface PoolFixture {
  cases: {
    parts: IntervalEstimate[];
    level: number;
    estimate: number;
    lower: number;
    upper: number;
  }[];
}

const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/scipy/pool.json', import.meta.url), 'utf8'),
) as PoolFixture;

describe('poolEstimates: fixed-effect pooling of intervals', () => {
  it('matches statsmodels combine_effects (fixed effect) on 60 cases', () => {
    expect(fixture.cases.length).toBe(60);
    expect(fixture.cases.some((c) => c.parts.length === 1)).toBe(true);
    for (const c of fixture.cases) {
      const p = poolEstimates(c.parts, c.level);
      const tol = 1e-9 * Math.max(1, c.upper - c.lower);
      expect(Math.abs(p.estimate - c.estimate)).toBeLessThan(tol);
      expect(Math.abs(p.lower - c.lower)).toBeLessThan(tol);
      expect(Math.abs(p.upper - c.upper)).toBeLessThan(tol);
      expect(p.level).toBe(c.level);
    }
  });

  it('k equal intervals pool to one √k narrower around the same centre; order does not matter', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: 1e-4, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 12 }),
        (estimate, half, k) => {
          const part = { estimate, lower: estimate - half, upper: estimate + half, level: 0.99 };
          const p = poolEstimates(Array.from({ length: k }, () => part));
          expect(p.estimate).toBeCloseTo(estimate, 10);
          expect((p.upper - p.lower) / 2).toBeCloseTo(half / Math.sqrt(k), 10);
        },
      ),
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            estimate: fc.double({ min: -1, max: 1, noNaN: true }),
            half: fc.double({ min: 1e-3, max: 1, noNaN: true }),
          }),
          { minLength: 2, maxLength: 6 },
        ),
        (xs) => {
          const parts = xs.map((x) => ({
            estimate: x.estimate,
            lower: x.estimate - x.half,
            upper: x.estimate + x.half,
            level: 0.95,
          }));
          const a = poolEstimates(parts);
          const b = poolEstimates([...parts].reverse());
          expect(a.estimate).toBeCloseTo(b.estimate, 10);
          // never wider than the narrowest part, and the centre between the extremes
          const narrowest = Math.min(...xs.map((x) => x.half));
          expect((a.upper - a.lower) / 2).toBeLessThanOrEqual(narrowest * (1 + 1e-12));
          const es = xs.map((x) => x.estimate);
          expect(a.estimate).toBeGreaterThanOrEqual(Math.min(...es) - 1e-12);
          expect(a.estimate).toBeLessThanOrEqual(Math.max(...es) + 1e-12);
        },
      ),
    );
  });

  it('an asymmetric interval is read by its wider side (wider pooled interval, never narrower)', () => {
    const sym = poolEstimates([{ estimate: 0, lower: -0.1, upper: 0.1, level: 0.99 }]);
    const asym = poolEstimates([{ estimate: 0, lower: -0.05, upper: 0.1, level: 0.99 }]);
    expect(asym).toEqual(sym);
  });

  it('bad input is a RangeError naming what is wrong', () => {
    expect(() => poolEstimates([])).toThrow(/at least one estimate/);
    expect(() => poolEstimates([{ estimate: 0, lower: 0, upper: 0, level: 0.99 }])).toThrow(
      /estimate 0: its interval has no width/,
    );
    expect(() => poolEstimates([{ estimate: 0, lower: 1, upper: -1, level: 0.99 }])).toThrow(
      /estimate 0: needs finite lower ≤ upper/,
    );
    expect(() => poolEstimates([{ estimate: 0, lower: -1, upper: 1, level: 1 }], 0.99)).toThrow(
      /estimate 0: level must be in \(0, 1\), got 1/,
    );
    expect(() => poolEstimates([{ estimate: 0, lower: -1, upper: 1, level: 0.9 }], 0)).toThrow(
      /level must be in \(0, 1\), got 0/,
    );
  });
});
