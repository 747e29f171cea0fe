import { readFileSync } from 'node:fs';
import {
  bootstrapOneSample,
  type OneSampleStatistic,
} from '../../src/stats/one-sample-bootstrap.js';
import { createRng } from '../../src/stats/rng.js';

interface Case {
  name: string;
  values: number[];
  statistic: OneSampleStatistic;
  method: 'percentile' | 'BCa';
  level: number;
  n_resamples: number;
  point: number;
  low: number;
  high: number;
  low2: number;
  high2: number;
  standard_error: number;
  low_sd_20000: number;
  high_sd_20000: number;
}

const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/scipy/one_sample_bootstrap.json', import.meta.url), 'utf8'),
) as { cases: Case[] };

describe('bootstrapOneSample agrees with scipy.stats.bootstrap((x,), ...)', () => {
  // Same definitions, independent random streams: ends agree within Monte Carlo error, shown
  // by scipy's own second seed (a median's ends jump between order statistics, so the
  // tolerance is at least the gap between neighbouring values there).
  it.each(fixture.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const r = bootstrapOneSample(c.values, c.statistic, {
      level: c.level,
      resamples: 20_000,
      seed: 7,
      method: c.method === 'BCa' ? 'bca' : 'percentile',
    });
    expect(r.estimate).toBeCloseTo(c.point, 12);
    const sorted = [...c.values].sort((a, b) => a - b);
    for (const [ours, theirs, sd] of [
      [r.lower, c.low, c.low_sd_20000],
      [r.upper, c.high, c.high_sd_20000],
    ] as const) {
      const at = sorted.findIndex((v) => v >= theirs);
      const gap =
        c.statistic === 'median'
          ? Math.max(sorted[Math.min(at + 1, sorted.length - 1)]! - sorted[Math.max(at - 1, 0)]!, 0)
          : 0;
      // two independent draws differ by √2·sd on average; 4√2·sd leaves ~1e-4 to chance. A
      // BCa end far in a tail (level 0.99998 in cv-BCa-0.99-skewed) has a large sd.
      const tolerance = Math.max(4 * Math.SQRT2 * sd, 0.05 * c.standard_error, gap);
      expect(Math.abs(ours - theirs)).toBeLessThanOrEqual(tolerance);
    }
  });
});

describe('bootstrapOneSample', () => {
  it('is reproducible from its seed and covers the true CV near the nominal rate', () => {
    const a = bootstrapOneSample([1, 2, 3, 4, 5, 6], 'median', { seed: 3, resamples: 1000 });
    expect(bootstrapOneSample([1, 2, 3, 4, 5, 6], 'median', { seed: 3, resamples: 1000 })).toEqual(
      a,
    );
    // 200 samples of 40 normal values, CV 2%: the 95% BCa interval of the CV covers 0.02
    const rng = createRng(11);
    let covered = 0;
    const runs = 200;
    for (let r = 0; r < runs; r++) {
      const xs = Array.from({ length: 40 }, () => 100 * (1 + 0.02 * rng.nextNormal()));
      const ci = bootstrapOneSample(xs, 'cv', { seed: r + 1, resamples: 1000 });
      if (ci.lower <= 0.02 && 0.02 <= ci.upper) covered++;
    }
    // binomial(200, 0.95) lies in [181, 197] with probability > 0.999
    expect(covered).toBeGreaterThanOrEqual(181);
    expect(covered).toBeLessThanOrEqual(197);
  });

  it('gives no interval for one value, and names bad input', () => {
    expect(bootstrapOneSample([5], 'median')).toMatchObject({ estimate: 5, lower: 5, upper: 5 });
    expect(() => bootstrapOneSample([], 'mean')).toThrow(/values must hold at least 1/);
    expect(() => bootstrapOneSample([1, 2], 'max' as never)).toThrow(/median, mean, cv, got max/);
    expect(() => bootstrapOneSample([1, 2], 'mean', { level: 2 })).toThrow(/level must be in/);
  });
});
