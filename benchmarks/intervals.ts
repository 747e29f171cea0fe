/**
 * Which interval of the paired change is narrowest at its nominal coverage (BENCHMARKS.md,
 * "Intervals"). Candidates, all on the log pair ratios, all 99%:
 *   median     the median with its order-statistic (sign-test) interval: duetkit's former
 *              default (its BCa interval is never narrower than this)
 *   trimmed20  the 20% trimmed mean, Tukey–McLaughlin interval (the new default)
 *   trimmed10 / trimmed25  other trims
 *   hl         Hodges–Lehmann estimate, signed-rank (Wilcoxon) interval
 *   median3    pairs taken three at a time, the median of each three (per-pair medians of
 *              several measurements at the same machine time), then the trimmed mean
 * 1. Simulation: coverage of the true centre and median width, n = 20, 60, 180, for normal
 *    noise, the spike model of tests/stats/coverage.test.ts (10% of each side 10–60% slower),
 *    heavier spikes (20%), spikes on one side more often than the other, and t(3) tails.
 * 2. Recorded real data: the A/A pairs of `npm run bench:suites`
 *    (benchmarks/results/suites-pairs.json) cut into windows of n pairs: how often each
 *    interval excludes 0 (a false change; 1% promised) and its median width.
 *
 *   node --import tsx benchmarks/intervals.ts [--experiments 2000]
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hodgesLehmann } from '../src/stats/hodges-lehmann.js';
import { medianInterval } from '../src/stats/median-interval.js';
import { createRng, type Rng } from '../src/stats/rng.js';
import { trimmedMean } from '../src/stats/trimmed-mean.js';

const argv = process.argv.slice(2);
const EXPERIMENTS = Number(argv[argv.indexOf('--experiments') + 1] ?? 2000) || 2000;
const LEVEL = 0.99;

type Interval = { lower: number; upper: number };
const INTERVALS: Record<string, (d: Float64Array) => Interval> = {
  median: (d) => medianInterval(d, LEVEL),
  trimmed20: (d) => trimmedMean(d, LEVEL, 0.2),
  trimmed10: (d) => trimmedMean(d, LEVEL, 0.1),
  trimmed25: (d) => trimmedMean(d, LEVEL, 0.25),
  hl: (d) => hodgesLehmann(d, LEVEL),
  median3: (d) => {
    const triples: number[] = [];
    for (let i = 0; i + 3 <= d.length; i += 3) {
      const t = [d[i]!, d[i + 1]!, d[i + 2]!].sort((a, b) => a - b);
      triples.push(t[1]!);
    }
    return trimmedMean(Float64Array.from(triples).sort(), LEVEL, 0.2);
  },
};

const spike = (rng: Rng, rate: number) =>
  rng.nextFloat() < rate ? Math.log(1.1 + 0.5 * rng.nextFloat()) : 0;
const MODELS: Record<string, (rng: Rng) => number> = {
  normal: (rng) => 0.02 * rng.nextNormal(),
  'spikes 10% per side': (rng) => 0.02 * rng.nextNormal() + spike(rng, 0.1) - spike(rng, 0.1),
  'spikes 20% per side': (rng) => 0.02 * rng.nextNormal() + spike(rng, 0.2) - spike(rng, 0.2),
  'spikes 12% head / 8% base': (rng) =>
    0.02 * rng.nextNormal() + spike(rng, 0.12) - spike(rng, 0.08),
  't(3) tails': (rng) => {
    const z = rng.nextNormal();
    let chi = 0;
    for (let k = 0; k < 3; k++) chi += rng.nextNormal() ** 2;
    return (0.02 * z) / Math.sqrt(chi / 3);
  },
};

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

const rng = createRng(2026);
// --recorded-only: keep the stored simulation, evaluate the recorded pairs again
const stored = existsSync('benchmarks/results/intervals.json')
  ? (JSON.parse(readFileSync('benchmarks/results/intervals.json', 'utf8')) as {
      simulation: Record<string, unknown>[];
    })
  : null;
const recordedOnly = argv.includes('--recorded-only') && stored !== null;
const simulation: Record<string, unknown>[] = recordedOnly ? stored.simulation : [];
for (const [model, draw] of Object.entries(recordedOnly ? {} : MODELS)) {
  // the true centre: the median of a large sample of the model (for symmetric models, 0)
  const big = Array.from({ length: 400_000 }, () => draw(rng)).sort((a, b) => a - b);
  const truth = big[200_000]!;
  for (const n of [20, 60, 180]) {
    const cover: Record<string, number> = {};
    const widths: Record<string, number[]> = {};
    for (let e = 0; e < EXPERIMENTS; e++) {
      const d = Float64Array.from({ length: n }, () => draw(rng)).sort();
      for (const [name, f] of Object.entries(INTERVALS)) {
        const ci = f(d);
        if (ci.lower <= truth && truth <= ci.upper) cover[name] = (cover[name] ?? 0) + 1;
        (widths[name] ??= []).push(ci.upper - ci.lower);
      }
    }
    const row = {
      model,
      n,
      coverage: Object.fromEntries(
        Object.keys(INTERVALS).map((k) => [k, (cover[k] ?? 0) / EXPERIMENTS]),
      ),
      medianWidth: Object.fromEntries(Object.keys(INTERVALS).map((k) => [k, median(widths[k]!)])),
    };
    simulation.push(row);
    const cells = Object.keys(INTERVALS).map(
      (k) =>
        `${k} ${(row.coverage[k]! * 100).toFixed(1)}% ${(row.medianWidth[k]! * 100).toFixed(2)}%`,
    );
    console.log(`${model.padEnd(28)} n=${String(n).padEnd(4)} ${cells.join(' | ')}`);
  }
}

const recorded: Record<string, unknown>[] = [];
const PAIRS = 'benchmarks/results/suites-pairs.json';
if (existsSync(PAIRS)) {
  const runs = JSON.parse(readFileSync(PAIRS, 'utf8')) as {
    suite: string;
    case: string;
    condition: string;
    logRatios: Record<string, number[]>;
  }[];
  for (const suite of [...new Set(runs.map((r) => r.suite))]) {
    for (const n of [20, 60]) {
      const calls: Record<string, number> = {};
      const widths: Record<string, number[]> = {};
      let windows = 0;
      for (const run of runs.filter((r) => r.suite === suite && r.case === 'aa')) {
        for (const series of Object.values(run.logRatios)) {
          for (let from = 0; from + n <= series.length; from += n) {
            const d = Float64Array.from(series.slice(from, from + n)).sort();
            windows++;
            for (const [name, f] of Object.entries(INTERVALS)) {
              const ci = f(d);
              if (ci.lower > 0 || ci.upper < 0) calls[name] = (calls[name] ?? 0) + 1;
              (widths[name] ??= []).push(ci.upper - ci.lower);
            }
          }
        }
      }
      if (windows === 0) continue;
      const row = {
        suite,
        n,
        windows,
        excludesZero: Object.fromEntries(Object.keys(INTERVALS).map((k) => [k, calls[k] ?? 0])),
        medianWidth: Object.fromEntries(Object.keys(INTERVALS).map((k) => [k, median(widths[k]!)])),
      };
      recorded.push(row);
      console.log(
        `recorded A/A ${suite} n=${n} (${windows} windows): ${Object.keys(INTERVALS)
          .map(
            (k) =>
              `${k} ${row.excludesZero[k]} excl. 0, ${(row.medianWidth[k]! * 100).toFixed(2)}%`,
          )
          .join(' | ')}`,
      );
    }
  }
}
writeFileSync(
  'benchmarks/results/intervals.json',
  `${JSON.stringify({ date: new Date().toISOString(), level: LEVEL, experiments: EXPERIMENTS, simulation, recorded }, null, 1)}\n`,
);
