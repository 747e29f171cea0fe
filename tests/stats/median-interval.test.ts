import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { medianInterval, signTestRank } from '../../src/stats/median-interval.js';
import { createRng } from '../../src/stats/rng.js';

interface Case {
  n: number;
  level: number;
  rank: number;
  coverage: number;
  values?: number[];
  lower?: number;
  upper?: number;
}

const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/scipy/median_interval.json', import.meta.url), 'utf8'),
) as { cases: Case[] };

describe('medianInterval: order statistics of the sign test', () => {
  it('agrees with scipy.stats.binom on the rank and the coverage, for n from 1 to 100,000', () => {
    expect(fixture.cases.length).toBeGreaterThan(40);
    for (const c of fixture.cases) {
      const got = signTestRank(c.n, (1 - c.level) / 2);
      expect(got.rank).toBe(c.rank);
      expect(Math.abs(1 - 2 * got.tail - c.coverage)).toBeLessThanOrEqual(1e-9);
    }
  });

  it('is [x(k), x(n+1−k)] of the sorted sample, exactly', () => {
    for (const c of fixture.cases.filter((x) => x.values !== undefined)) {
      const ascending = Float64Array.from(c.values!).sort();
      const got = medianInterval(ascending, c.level);
      expect(got.lower).toBe(c.lower);
      expect(got.upper).toBe(c.upper);
      expect(got.effectiveN).toBe(c.n);
    }
  });

  it('says when too few values reach the level, and then spans them all', () => {
    const got = medianInterval([1, 2, 3, 4, 5], 0.99);
    expect(got).toMatchObject({ lower: 1, upper: 5, rank: 1 });
    expect(got.coverage).toBeCloseTo(1 - 2 / 32, 12);
  });

  it('covers the median at least as often as asked, for independent values (simulation)', () => {
    // exponential data (skewed): true median ln 2; 2,000 samples of n = 25 at 95%
    const rng = createRng(5);
    let covered = 0;
    const experiments = 2000;
    for (let e = 0; e < experiments; e++) {
      const xs = Float64Array.from({ length: 25 }, () => -Math.log(1 - rng.nextFloat())).sort();
      const ci = medianInterval(xs, 0.95);
      if (ci.lower <= Math.LN2 && Math.LN2 <= ci.upper) covered++;
    }
    const nominal = medianInterval(new Float64Array(25), 0.95).coverage; // 0.9567 for n = 25
    // the binomial standard error of the rate at 2,000 experiments is about 0.0045
    expect(covered / experiments).toBeGreaterThan(nominal - 3 * 0.0045);
  });

  it('widens with the block length and stays inside the data', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 30, maxLength: 300 }),
        fc.integer({ min: 2, max: 8 }),
        (values, blockLength) => {
          const ascending = Float64Array.from(values).sort();
          const iid = medianInterval(ascending, 0.99);
          const blocked = medianInterval(ascending, 0.99, blockLength);
          expect(blocked.lower).toBeLessThanOrEqual(iid.lower);
          expect(blocked.upper).toBeGreaterThanOrEqual(iid.upper);
          expect(blocked.lower).toBeGreaterThanOrEqual(ascending[0]!);
          expect(blocked.upper).toBeLessThanOrEqual(ascending.at(-1)!);
          expect(blocked.effectiveN).toBe(Math.floor(values.length / blockLength));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('names what it refuses', () => {
    expect(() => medianInterval([], 0.99)).toThrow('at least one value');
    expect(() => medianInterval([1, 2], 1)).toThrow('level must be in (0, 1), got 1');
    expect(() => medianInterval([1, 2], 0.9, 0)).toThrow(
      'blockLength must be an integer ≥ 1, got 0',
    );
  });
});
