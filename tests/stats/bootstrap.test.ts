import { readFileSync } from 'node:fs';
import {
  bootstrap,
  bootstrapChunks,
  RESAMPLES_PER_CHUNK,
  type BootstrapPlan,
} from '../../src/stats/bootstrap.js';
import { drawMovingBlocks } from '../../src/stats/resample.js';
import { bcaLevels, bootstrapInterval } from '../../src/stats/interval.js';
import { createRng } from '../../src/stats/rng.js';
import type { Statistic } from '../../src/stats/types.js';

interface Case {
  name: string;
  base: number[];
  head: number[];
  paired: boolean;
  statistic: 'ratio_of_medians' | 'ratio_of_means' | 'gmean_of_ratios' | 'median_of_ratios';
  method: 'percentile' | 'BCa';
  level: number;
  n_resamples: number;
  point: number;
  low: number;
  high: number;
  low2: number;
  high2: number;
  standard_error: number;
}

const reference = JSON.parse(
  readFileSync(new URL('../fixtures/scipy/bootstrap.json', import.meta.url), 'utf8'),
) as { cases: Case[] };

const statisticOf: Record<Case['statistic'], Statistic> = {
  ratio_of_medians: 'median',
  ratio_of_means: 'mean',
  gmean_of_ratios: 'gmean',
  median_of_ratios: 'median',
};

/**
 * Same data, same definitions, independent random streams: endpoints must agree within the
 * Monte Carlo error, which the fixture shows by repeating scipy with a second seed. Median
 * endpoints jump between order statistics, so the tolerance is the larger of three times
 * scipy's own run-to-run spread and a small fraction of the bootstrap standard error.
 */
describe('bootstrap intervals agree with scipy.stats.bootstrap', () => {
  it.each(reference.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const statistic = statisticOf[c.statistic];
    const common = { base: c.base, head: c.head, statistic, resamples: c.n_resamples, seed: 12345 };
    const result = bootstrap(
      c.paired
        ? { design: 'paired', ...common, blockLength: 1 }
        : { design: 'unpaired', ...common },
    );
    expect(result.observed).toBeCloseTo(c.point, 12);
    const interval = bootstrapInterval(result, c.level, c.method === 'BCa' ? 'bca' : 'percentile');
    const ascending = Float64Array.from(result.distribution).sort();
    const alpha = (1 - c.level) / 2;
    const levels = c.method === 'BCa' ? bcaLevels(result, ascending, alpha)! : [alpha, 1 - alpha];
    for (const [k, ours, theirs, theirs2] of [
      [0, interval.lower, c.low, c.low2],
      [1, interval.upper, c.high, c.high2],
    ] as const) {
      if (statistic === 'median') {
        // A median's bootstrap distribution is discrete (atoms at order statistics), so a
        // quantile can jump between atoms: compare levels, not values. scipy's endpoint must
        // sit at our quantile level within Monte Carlo error (4 binomial standard errors).
        const p = levels[k]!;
        const below = ascending.filter((v) => v < theirs - 1e-12).length / ascending.length;
        const atOrBelow = ascending.filter((v) => v <= theirs + 1e-12).length / ascending.length;
        const mc = 4 * Math.sqrt((p * (1 - p)) / c.n_resamples);
        expect(p).toBeGreaterThanOrEqual(below - mc);
        expect(p).toBeLessThanOrEqual(atOrBelow + mc);
      } else {
        const tolerance = Math.max(3 * Math.abs(theirs - theirs2), 0.08 * c.standard_error);
        expect(Math.abs(ours - theirs)).toBeLessThanOrEqual(tolerance);
      }
    }
  });
});

describe('bootstrap mechanics', () => {
  const base = [10, 11, 12, 10.5, 11.5, 10.2, 11.1, 12.3];
  const head = [10.4, 11.9, 12.1, 11, 11.8, 10.9, 11.6, 12.4];
  const plan = (seed: number, resamples = 2500): BootstrapPlan => ({
    design: 'unpaired',
    base,
    head,
    statistic: 'median',
    resamples,
    seed,
  });

  it('is reproducible from the seed and changes with it', () => {
    expect(bootstrap(plan(7)).distribution).toEqual(bootstrap(plan(7)).distribution);
    expect(bootstrap(plan(7)).distribution).not.toEqual(bootstrap(plan(8)).distribution);
  });

  it('gives the same distribution however its chunks are shared out', () => {
    const whole = bootstrap(plan(3)).distribution;
    expect(whole).toHaveLength(2500);
    const [c0, c2] = bootstrapChunks(plan(3), [0, 2]);
    const [c1] = bootstrapChunks(plan(3), [1]);
    expect(c0).toHaveLength(RESAMPLES_PER_CHUNK);
    expect(c2).toHaveLength(500);
    expect(Float64Array.from([...c0!, ...c1!, ...c2!])).toEqual(whole);
    expect(c0).not.toEqual(c1!.subarray(0, RESAMPLES_PER_CHUNK));
    expect(() => bootstrapChunks(plan(3), [2, 1])).toThrow(/chunks must ascend/);
  });

  it('jumped generators are independent streams, reproducible from the seed', () => {
    const a = createRng(5);
    const b = a.jumped();
    const first = Array.from({ length: 5 }, () => a.nextUint32());
    expect(Array.from({ length: 5 }, () => b.nextUint32())).not.toEqual(first);
    const again = createRng(5).jumped();
    const b2 = createRng(5).jumped();
    expect(Array.from({ length: 5 }, () => again.nextUint32())).toEqual(
      Array.from({ length: 5 }, () => b2.nextUint32()),
    );
  });

  it('block resampling keeps runs of consecutive pairs together', () => {
    const n = 40;
    const out = new Int32Array(n);
    drawMovingBlocks(n, 5, out, createRng(1));
    for (let start = 0; start < n; start += 5) {
      for (let j = 1; j < 5; j++) expect(out[start + j]).toBe(out[start]! + j);
      expect(out[start]).toBeLessThanOrEqual(n - 5);
    }
  });

  it('BCa equals the percentile interval for a constant statistic', () => {
    const ones = [1, 1, 1, 1, 1];
    const twos = [2, 2, 2, 2, 2];
    const result = bootstrap({
      design: 'paired',
      base: ones,
      head: twos,
      statistic: 'gmean',
      resamples: 200,
      seed: 1,
      blockLength: 1,
    });
    const interval = bootstrapInterval(result, 0.99, 'bca');
    expect(interval.method).toBe('bca');
    expect(interval.lower).toBeCloseTo(1, 12);
    expect(interval.upper).toBeCloseTo(1, 12);
  });

  it('BCa falls back to percentile with a note when the estimate lies outside the distribution', () => {
    const result = {
      observed: 0,
      distribution: Float64Array.from({ length: 100 }, (_, i) => 1 + i / 100),
      jackknife: [Float64Array.from([0.1, 0.2, 0.4])],
    };
    const interval = bootstrapInterval(result, 0.9, 'bca');
    expect(interval.method).toBe('percentile');
    expect(interval.note).toMatch(/BCa is undefined/);
    expect(interval.lower).toBeCloseTo(1.0495, 10);
    expect(interval.upper).toBeCloseTo(1.9405, 10);
  });
});
