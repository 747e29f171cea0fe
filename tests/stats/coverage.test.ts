import { compare } from '../../src/stats/compare.js';
import { createRng, type Rng } from '../../src/stats/rng.js';
import type { Statistic } from '../../src/stats/types.js';

/**
 * Coverage simulation: with a known true ratio, how often does the 99% CI contain it? Each
 * configuration runs 500 simulated experiments of n = 30 (per side, or pairs) and must cover
 * the truth in 97–100% of them (95.5% for the geometric mean with the automatic block length: below). (A 99%
 * interval covers 495/500 on average; 485 is 97%.)
 * 2,000 resamples per interval keep the suite fast; the interval's own Monte Carlo error at
 * 2,000 resamples is small next to its width.
 */
const EXPERIMENTS = 500;
const N = 30;
const TRUE_CHANGE = 0.03;

interface Scenario {
  name: string;
  paired: boolean;
  statistic: Statistic;
  blockLength?: 'auto';
  /** The least coverage accepted, when not 97% (below). */
  floor?: number;
  draw: (rng: Rng) => { base: number[]; head: number[] };
}

const lognormal = (rng: Rng, median: number, sigma: number) =>
  median * Math.exp(sigma * rng.nextNormal());
const normal = (rng: Rng, mean: number, sd: number) => mean + sd * rng.nextNormal();

/** Shared per-pair noise (the duet setting) plus each side's own; E log(h/b) = log 1.03. */
function pairedLognormal(rng: Rng): { base: number[]; head: number[] } {
  const base: number[] = [];
  const head: number[] = [];
  for (let i = 0; i < N; i++) {
    const common = Math.exp(0.2 * rng.nextNormal());
    base.push(lognormal(rng, 100, 0.02) * common);
    head.push(lognormal(rng, 103, 0.02) * common);
  }
  return { base, head };
}

/**
 * The shared machine: as pairedLognormal, plus interference that only ever adds time, to
 * each side on its own (10% of values 10–60% slower). The spikes are symmetric between the
 * sides, so the median log ratio is still log 1.03.
 */
function pairedWithSpikes(rng: Rng): { base: number[]; head: number[] } {
  const { base, head } = pairedLognormal(rng);
  const spike = (x: number) => (rng.nextFloat() < 0.1 ? x * (1.1 + 0.5 * rng.nextFloat()) : x);
  return { base: base.map(spike), head: head.map(spike) };
}

const scenarios: Scenario[] = [
  {
    // population medians 100 and 103: ratio of medians = 1.03 exactly
    name: 'unpaired lognormal, ratio of medians',
    paired: false,
    statistic: 'median',
    draw: (rng) => ({
      base: Array.from({ length: N }, () => lognormal(rng, 100, 0.1)),
      head: Array.from({ length: N }, () => lognormal(rng, 103, 0.1)),
    }),
  },
  {
    // symmetric: median = mean, ratio 1.03
    name: 'unpaired normal, ratio of medians',
    paired: false,
    statistic: 'median',
    draw: (rng) => ({
      base: Array.from({ length: N }, () => normal(rng, 100, 5)),
      head: Array.from({ length: N }, () => normal(rng, 103, 5)),
    }),
  },
  {
    // shared per-pair noise (the duet setting) plus own noise; E log(h/b) = log 1.03
    name: 'paired lognormal, geometric mean of ratios',
    paired: true,
    statistic: 'gmean',
    draw: pairedLognormal,
  },
  {
    // the default: block length chosen from the data (these pairs are independent). A block
    // bootstrap at n = 30 covers less than its nominal level: this one covered 97.4% of 3,000
    // experiments (2026-11-27; without blocks, 98.5%). 500 experiments read it to ±0.7%
    // (1 sd), so its floor is 95.5%, 2.7 sd below: the old generator's stream read 97.x%, a
    // fixed seed's luck against a floor of 97%
    name: 'paired lognormal, geometric mean of ratios, automatic block length',
    floor: 0.955,
    paired: true,
    statistic: 'gmean',
    blockLength: 'auto',
    draw: pairedLognormal,
  },
  {
    // the default paired statistic: the median pair ratio, block length from the data
    name: 'paired lognormal, median of ratios, automatic block length',
    paired: true,
    statistic: 'median',
    blockLength: 'auto',
    draw: pairedLognormal,
  },
  {
    name: 'paired lognormal with one-sided spikes, median of ratios, automatic block length',
    paired: true,
    statistic: 'median',
    blockLength: 'auto',
    draw: pairedWithSpikes,
  },
  {
    // the default paired statistic: the 20% trimmed mean of the log ratios (Tukey–McLaughlin)
    name: 'paired lognormal, trimmed mean of log ratios, automatic block length',
    paired: true,
    statistic: 'trimmed',
    blockLength: 'auto',
    draw: pairedLognormal,
  },
  {
    name: 'paired lognormal with one-sided spikes, trimmed mean of log ratios, automatic block length',
    paired: true,
    statistic: 'trimmed',
    blockLength: 'auto',
    draw: pairedWithSpikes,
  },
  {
    // additive shared noise; E h / E b = 103/100: ratio of means
    name: 'paired normal, ratio of means',
    paired: true,
    statistic: 'mean',
    draw: (rng) => {
      const base: number[] = [];
      const head: number[] = [];
      for (let i = 0; i < N; i++) {
        const common = normal(rng, 0, 10);
        base.push(normal(rng, 100, 2) + common);
        head.push(normal(rng, 103, 2) + common);
      }
      return { base, head };
    },
  },
];

describe('99% CI coverage of a known true change (500 simulated experiments, n = 30)', () => {
  it.each(scenarios.map((s) => [s.name, s] as const))('%s', (_name, s) => {
    const rng = createRng(2024);
    let covered = 0;
    for (let e = 0; e < EXPERIMENTS; e++) {
      const { base, head } = s.draw(rng);
      const c = compare(base, head, {
        paired: s.paired,
        statistic: s.statistic,
        resamples: 2000,
        seed: e,
        blockLength: s.blockLength ?? 1,
      });
      if (c.ci.lower <= TRUE_CHANGE && TRUE_CHANGE <= c.ci.upper) covered++;
    }
    const rate = covered / EXPERIMENTS;
    expect(rate).toBeGreaterThanOrEqual(s.floor ?? 0.97);
    expect(rate).toBeLessThanOrEqual(1);
    // printed so the figure can be quoted; the assertion above is the contract
    process.stdout.write(`coverage ${s.name}: ${(rate * 100).toFixed(1)}%\n`);
  });
});
