import { readFileSync } from 'node:fs';
import {
  hodgesLehmann,
  signedRankCritical,
  walshOrderStatistics,
} from '../../src/stats/hodges-lehmann.js';
import { createRng } from '../../src/stats/rng.js';
import { studentTCdf, studentTPpf } from '../../src/stats/student-t.js';
import { trimmedMean } from '../../src/stats/trimmed-mean.js';

interface Fixture {
  t: { df: number; p?: number; ppf?: number; x?: number; cdf?: number }[];
  trimmed: { values: number[]; level: number; estimate: number; lower: number; upper: number }[];
  hodgesLehmann: {
    values: number[];
    level: number;
    estimate: number;
    lower: number;
    upper: number;
  }[];
}

const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/scipy/intervals.json', import.meta.url), 'utf8'),
) as Fixture;

const close = (got: number, want: number, rel: number) =>
  expect(Math.abs(got - want)).toBeLessThanOrEqual(rel * Math.max(1, Math.abs(want)));

const ascending = (xs: number[]) => Float64Array.from(xs).sort();

describe("Student's t (scipy.stats.t)", () => {
  it('has the CDF and the quantiles scipy has', () => {
    for (const c of fixture.t) {
      if (c.ppf !== undefined) close(studentTPpf(c.p!, c.df), c.ppf, 1e-9);
      if (c.cdf !== undefined) close(studentTCdf(c.x!, c.df), c.cdf, 1e-10);
    }
  });
});

describe('trimmed mean and its Tukey–McLaughlin interval (scipy.stats.mstats.trimmed_mean_ci)', () => {
  it('agrees with scipy', () => {
    expect(fixture.trimmed.length).toBeGreaterThan(10);
    for (const c of fixture.trimmed) {
      const got = trimmedMean(ascending(c.values), c.level);
      close(got.estimate, c.estimate, 1e-12);
      close(got.lower, c.lower, 1e-9);
      close(got.upper, c.upper, 1e-9);
    }
  });

  it('names what it refuses', () => {
    expect(() => trimmedMean([1, 2, 3], 0.99, 0.5)).toThrow('trim proportion must be in [0, 0.5)');
    expect(() => trimmedMean([1], 0.99)).toThrow('at least 2 values left');
  });
});

describe('Hodges–Lehmann estimate with the signed-rank interval', () => {
  it('is the interval that inverts scipy.stats.wilcoxon, exact and asymptotic', () => {
    expect(fixture.hodgesLehmann.length).toBeGreaterThan(10);
    for (const c of fixture.hodgesLehmann) {
      const got = hodgesLehmann(ascending(c.values), c.level);
      close(got.estimate, c.estimate, 1e-12);
      close(got.lower, c.lower, 1e-12);
      close(got.upper, c.upper, 1e-12);
      expect(got.method).toBe(c.values.length <= 50 ? 'exact' : 'asymptotic');
    }
  });

  it('selects Walsh averages without listing them, the same as listing and sorting', () => {
    const rng = createRng(9);
    const d = Float64Array.from({ length: 800 }, () => rng.nextNormal()).sort();
    const all: number[] = [];
    for (let i = 0; i < d.length; i++)
      for (let j = i; j < d.length; j++) all.push((d[i]! + d[j]!) / 2);
    all.sort((a, b) => a - b);
    const ranks = [1, 2, 1000, 160_200, all.length - 1, all.length];
    expect(walshOrderStatistics(d, ranks)).toEqual(ranks.map((r) => all[r - 1]));
  });

  it('covers the centre of symmetric data at least as often as asked (simulation)', () => {
    const rng = createRng(4);
    let covered = 0;
    const experiments = 1000;
    for (let e = 0; e < experiments; e++) {
      const d = Float64Array.from({ length: 20 }, () => 0.5 + rng.nextNormal() ** 3).sort();
      const ci = hodgesLehmann(d, 0.95);
      if (ci.lower <= 0.5 && 0.5 <= ci.upper) covered++;
    }
    const nominal = signedRankCritical(20, 0.025);
    // binomial standard error of the rate at 1,000 experiments: about 0.007
    expect(covered / experiments).toBeGreaterThan(1 - 2 * nominal.tail - 3 * 0.007);
  });

  it('says when too few values reach the level', () => {
    const got = hodgesLehmann([1, 2, 3], 0.99);
    expect(got.rank).toBe(-1);
    expect(got).toMatchObject({ lower: 1, upper: 3, coverage: 0.75 });
  });
});
