/**
 * The differential profile's A/A property and its power (issue 23; docs/explain.md, "Reading
 * the differential"). Synthetic folded profiles of a checksum program
 * (tests/support/synthetic-profiles.ts), base and head drawn from the same multinomial: how
 * often does the differential call any function beyond noise (promised: in at most 5% of runs;
 * the family level is 99%)? A row is called when its *contribution* (head share × time ratio −
 * base share) has an interval excluding 0 and is at least 0.5% of base's time. The time ratio
 * is either the profiles' own (resampled with the chunks), or measured: drawn per run from an
 * A/A (or a slowed) distribution, log-normal with the spread of the quickstart's 99% interval
 * (±1.5%), and handed over with that interval, as the comparison does. Both routes of the
 * interval — the sample counts (4 chunks a side) and the chunk bootstrap (≥ 8 chunks) — and
 * chunks that vary from one to the next (weights × exp(0.1·N(0,1)) per chunk).
 *
 * Power: `checksum_loop` made 6% slower while it holds a given share of base's time (the
 * other stacks scaled to the rest), the measured ratio drawn around 1 + 0.06 × that share:
 * how often is it named first?
 *
 *   node --import tsx benchmarks/explain.ts [--runs 1000] [--seed 23]
 *
 * Writes benchmarks/results/explain.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { differential, type DifferentialOptions } from '../src/explain/differential.js';
import { normalPpf } from '../src/stats/normal.js';
import { createRng, type Rng } from '../src/stats/rng.js';
import { wilsonInterval } from '../src/stats/proportion.js';
import {
  CHECKSUM_PROGRAM,
  syntheticSide,
  type WeightedStack,
} from '../tests/support/synthetic-profiles.js';
import { numberFlag } from './args.js';

const argv = process.argv.slice(2);
const RUNS = numberFlag(argv, '--runs', '1000');
const SEED = numberFlag(argv, '--seed', '23');

/** The log-scale spread of a measured ratio whose 99% interval is ±1.5% (the quickstart's). */
const RATIO_SIGMA = Math.log(1.015) / normalPpf(0.995);
const RATIO_LEVEL = 0.99;

interface Config {
  name: string;
  chunks: number;
  samplesPerChunk: number;
  jitter: number;
  /**
   * Spread of the samples per chunk, × exp(countJitter · N(0, 1)): one process's samples
   * differ from the next's (the quickstart's node processes: 134 to 171 at 1 kHz, ≈ 9%).
   */
  countJitter?: number;
  /** `measured`: drawn per run and handed over with its interval; `profile`: the profiles'. */
  ratio: 'measured' | 'profile';
  /** Power: the share of base's time `checksum_loop` holds (null: A/A only). */
  share: number | null;
}

const LEAF = 'checksum_loop';
const SLOWDOWN = 1.06;

const CONFIGS: Config[] = [
  {
    name: 'counts, 4×500, profile ratio',
    chunks: 4,
    samplesPerChunk: 500,
    jitter: 0,
    ratio: 'profile',
    share: null,
  },
  {
    name: 'counts, 4×5000, measured ratio',
    chunks: 4,
    samplesPerChunk: 5000,
    jitter: 0,
    ratio: 'measured',
    share: null,
  },
  {
    name: 'counts, 4×5000, chunks vary, measured',
    chunks: 4,
    samplesPerChunk: 5000,
    jitter: 0.1,
    ratio: 'measured',
    share: null,
  },
  {
    name: 'bootstrap, 12×5000, profile ratio',
    chunks: 12,
    samplesPerChunk: 5000,
    jitter: 0,
    ratio: 'profile',
    share: null,
  },
  {
    name: 'bootstrap, 12×5000, chunks vary, profile',
    chunks: 12,
    samplesPerChunk: 5000,
    jitter: 0.1,
    ratio: 'profile',
    share: null,
  },
  {
    name: 'bootstrap, 12×5000, chunks vary, measured',
    chunks: 12,
    samplesPerChunk: 5000,
    jitter: 0.1,
    ratio: 'measured',
    share: null,
  },
  {
    name: 'bootstrap, 8×150, measured, share 65%',
    chunks: 8,
    samplesPerChunk: 150,
    jitter: 0.02,
    ratio: 'measured',
    share: 0.65,
  },
  {
    name: 'bootstrap, 8×1500, measured, share 65%',
    chunks: 8,
    samplesPerChunk: 1500,
    jitter: 0.02,
    ratio: 'measured',
    share: 0.65,
  },
  {
    name: 'bootstrap, 20×1500, measured, share 65%',
    chunks: 20,
    samplesPerChunk: 1500,
    jitter: 0.02,
    ratio: 'measured',
    share: 0.65,
  },
  {
    name: 'bootstrap, 20×1500, measured, share 20%',
    chunks: 20,
    samplesPerChunk: 1500,
    jitter: 0.02,
    ratio: 'measured',
    share: 0.2,
  },
  {
    name: 'bootstrap, 12×5000, measured, share 90%',
    chunks: 12,
    samplesPerChunk: 5000,
    jitter: 0.02,
    ratio: 'measured',
    share: 0.9,
  },
  {
    name: 'bootstrap, 20×1500, profile ratio, share 65%',
    chunks: 20,
    samplesPerChunk: 1500,
    jitter: 0.02,
    ratio: 'profile',
    share: 0.65,
  },
  {
    name: 'bootstrap, 8×150, counts vary, measured, share 65%',
    chunks: 8,
    samplesPerChunk: 150,
    jitter: 0.02,
    countJitter: 0.09,
    ratio: 'measured',
    share: 0.65,
  },
  {
    name: 'bootstrap, 20×1500, counts vary, measured, share 65%',
    chunks: 20,
    samplesPerChunk: 1500,
    jitter: 0.02,
    countJitter: 0.09,
    ratio: 'measured',
    share: 0.65,
  },
  {
    name: 'bootstrap, 20×1500, counts vary, profile, share 65%',
    chunks: 20,
    samplesPerChunk: 1500,
    jitter: 0.02,
    countJitter: 0.09,
    ratio: 'profile',
    share: 0.65,
  },
];

/** The program with `leaf`'s stacks holding `share` of the weight and the rest scaled. */
function withShare(program: readonly WeightedStack[], leaf: string, share: number) {
  const isLeaf = (s: WeightedStack) => s.frames[s.frames.length - 1] === leaf;
  const leafWeight = program.filter(isLeaf).reduce((w, s) => w + s.weight, 0);
  const rest = program.filter((s) => !isLeaf(s)).reduce((w, s) => w + s.weight, 0);
  return program.map((s) => ({
    frames: s.frames,
    weight: isLeaf(s) ? (s.weight / leafWeight) * share : (s.weight / rest) * (1 - share),
  }));
}

/** `leaf` made `factor` times as heavy; the samples per unit of work grow with it. */
function slowedBy(program: readonly WeightedStack[], leaf: string, factor: number) {
  return program.map((s) => ({
    frames: s.frames,
    weight: s.frames[s.frames.length - 1] === leaf ? s.weight * factor : s.weight,
  }));
}

/** A measured ratio drawn around `truth`, handed over with its 99% interval. */
function measured(truth: number, rng: Rng): DifferentialOptions['timeRatio'] {
  const estimate = truth * Math.exp(RATIO_SIGMA * rng.nextNormal());
  const half = RATIO_SIGMA * normalPpf(1 - (1 - RATIO_LEVEL) / 2);
  return {
    estimate,
    lower: estimate * Math.exp(-half),
    upper: estimate * Math.exp(half),
    level: RATIO_LEVEL,
  };
}

/** A side of `config.chunks` chunks, each with its own number of samples. */
function side(
  program: readonly WeightedStack[],
  config: Config,
  samplesPerChunk: number,
  version: string,
  rng: Rng,
) {
  const chunks = Array.from({ length: config.chunks }, () => {
    const n = samplesPerChunk * Math.exp((config.countJitter ?? 0) * rng.nextNormal());
    const one = { chunks: 1, samplesPerChunk: Math.max(1, Math.round(n)), jitter: config.jitter };
    return syntheticSide(program, rng, { ...one, version }).chunks[0]!;
  });
  return { ...syntheticSide(program, rng, { chunks: 0, samplesPerChunk: 0, version }), chunks };
}

function run(config: Config, slowed: boolean, seed: number) {
  const rng = createRng(seed);
  const base =
    config.share === null ? CHECKSUM_PROGRAM : withShare(CHECKSUM_PROGRAM, LEAF, config.share);
  const head = slowed ? slowedBy(base, LEAF, SLOWDOWN) : base;
  const truth = slowed ? 1 + (SLOWDOWN - 1) * (config.share ?? 0) : 1;
  let flagged = 0;
  let namedFirst = 0;
  let tests = 0;
  for (let i = 0; i < RUNS; i++) {
    const b = side(base, config, config.samplesPerChunk, 'base', rng);
    // Head's samples per chunk grow with its time for the same work.
    const h = side(head, config, config.samplesPerChunk * truth, 'head', rng);
    const d = differential(b, h, {
      seed: seed + i,
      ...(config.ratio === 'measured' ? { timeRatio: measured(truth, rng) } : {}),
    });
    tests += d.method.tests;
    const called = d.functions.filter((f) => f.beyondNoise);
    if (called.length > 0) flagged++;
    if (called[0]?.name === LEAF && called[0].kind === 'self') namedFirst++;
  }
  return { flagged, namedFirst, meanTests: tests / RUNS };
}

const results = [];
for (const [i, config] of CONFIGS.entries()) {
  const started = performance.now();
  const aa = run(config, false, SEED * 1000 + i * 10);
  const ab = config.share === null ? null : run(config, true, SEED * 1000 + i * 10 + 5);
  const rate = wilsonInterval(aa.flagged, RUNS, 0.95);
  const row = {
    config: config.name,
    chunks: config.chunks,
    samplesPerChunk: config.samplesPerChunk,
    jitter: config.jitter,
    countJitter: config.countJitter ?? 0,
    ratio: config.ratio,
    share: config.share,
    runs: RUNS,
    aaFlagged: aa.flagged,
    aaRate: aa.flagged / RUNS,
    aaRate95: [rate.lower, rate.upper],
    meanTests: aa.meanTests,
    slowedNamedFirst: ab === null ? null : ab.namedFirst / RUNS,
    seconds: (performance.now() - started) / 1000,
  };
  results.push(row);
  console.log(
    `${config.name.padEnd(46)} A/A flagged ${aa.flagged}/${RUNS} = ${(100 * row.aaRate).toFixed(2)}% [${(100 * rate.lower).toFixed(2)}, ${(100 * rate.upper).toFixed(2)}]` +
      `  tests ${aa.meanTests.toFixed(1)}` +
      (ab === null
        ? ''
        : `  ${LEAF} +6% named first ${((100 * ab.namedFirst) / RUNS).toFixed(1)}%`) +
      `  (${row.seconds.toFixed(1)} s)`,
  );
}
mkdirSync('benchmarks/results', { recursive: true });
writeFileSync(
  'benchmarks/results/explain.json',
  `${JSON.stringify({ runs: RUNS, seed: SEED, slowdown: SLOWDOWN, ratioSigma: RATIO_SIGMA, results }, null, 2)}\n`,
);
