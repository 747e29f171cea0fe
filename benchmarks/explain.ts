/**
 * The differential profile's A/A property and its power (issue 23; docs/explain.md, "Reading
 * the differential"). Synthetic folded profiles of the quickstart's checksum program
 * (tests/support/synthetic-profiles.ts), base and head drawn from the same multinomial: how
 * often does the differential call any function beyond noise (promised: in at most 5% of runs;
 * the family level is 99%)? Then with `checksum_loop` made 1.15× as heavy: how often is it
 * named first? Both routes of the interval — Newcombe on sample counts (4 chunks a side) and
 * the chunk bootstrap (12 chunks) — at two sample counts, and an A/A whose chunks vary from one
 * to the next (weights × exp(0.1·N(0,1)) per chunk) to show what the bootstrap is for.
 *
 *   node --import tsx benchmarks/explain.ts [--runs 1000] [--seed 23]
 *
 * Writes benchmarks/results/explain.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { differential } from '../src/explain/differential.js';
import { createRng } from '../src/stats/rng.js';
import { wilsonInterval } from '../src/stats/proportion.js';
import {
  CHECKSUM_PROGRAM,
  slowed,
  syntheticSide,
  type WeightedStack,
} from '../tests/support/synthetic-profiles.js';
import { numberFlag } from './args.js';

const argv = process.argv.slice(2);
const RUNS = numberFlag(argv, '--runs', '1000');
const SEED = numberFlag(argv, '--seed', '23');

interface Config {
  name: string;
  chunks: number;
  samplesPerChunk: number;
  jitter: number;
}

const CONFIGS: Config[] = [
  { name: 'newcombe, 4×500 samples', chunks: 4, samplesPerChunk: 500, jitter: 0 },
  { name: 'newcombe, 4×5000 samples', chunks: 4, samplesPerChunk: 5000, jitter: 0 },
  { name: 'bootstrap, 12×500 samples', chunks: 12, samplesPerChunk: 500, jitter: 0 },
  { name: 'bootstrap, 12×5000 samples', chunks: 12, samplesPerChunk: 5000, jitter: 0 },
  { name: 'bootstrap, 12×5000, chunks vary', chunks: 12, samplesPerChunk: 5000, jitter: 0.1 },
  { name: 'newcombe, 4×5000, chunks vary', chunks: 4, samplesPerChunk: 5000, jitter: 0.1 },
];

function run(config: Config, headProgram: readonly WeightedStack[], seed: number) {
  const rng = createRng(seed);
  let flagged = 0;
  let namedFirst = 0;
  let tests = 0;
  for (let i = 0; i < RUNS; i++) {
    const options = {
      chunks: config.chunks,
      samplesPerChunk: config.samplesPerChunk,
      jitter: config.jitter,
    };
    const base = syntheticSide(CHECKSUM_PROGRAM, rng, { ...options, version: 'base' });
    const head = syntheticSide(headProgram, rng, { ...options, version: 'head' });
    const d = differential(base, head, { seed: seed + i });
    tests += d.method.tests;
    const called = d.functions.filter((f) => f.beyondNoise);
    if (called.length > 0) flagged++;
    if (called[0]?.name === 'checksum_loop' && called[0].kind === 'self') namedFirst++;
  }
  return { flagged, namedFirst, meanTests: tests / RUNS };
}

const results = [];
for (const [i, config] of CONFIGS.entries()) {
  const started = performance.now();
  const aa = run(config, CHECKSUM_PROGRAM, SEED * 1000 + i * 10);
  const ab = run(config, slowed(CHECKSUM_PROGRAM, 'checksum_loop', 1.15), SEED * 1000 + i * 10 + 5);
  const rate = wilsonInterval(aa.flagged, RUNS, 0.95);
  const row = {
    config: config.name,
    runs: RUNS,
    aaFlagged: aa.flagged,
    aaRate: aa.flagged / RUNS,
    aaRate95: [rate.lower, rate.upper],
    meanTests: aa.meanTests,
    slowedNamedFirst: ab.namedFirst / RUNS,
    seconds: (performance.now() - started) / 1000,
  };
  results.push(row);
  console.log(
    `${config.name.padEnd(34)} A/A flagged ${aa.flagged}/${RUNS} = ${(100 * row.aaRate).toFixed(2)}% [${(100 * rate.lower).toFixed(2)}, ${(100 * rate.upper).toFixed(2)}]` +
      `  tests ${aa.meanTests.toFixed(1)}  checksum_loop ×1.15 named first ${(100 * row.slowedNamedFirst).toFixed(1)}%  (${row.seconds.toFixed(1)} s)`,
  );
}
mkdirSync('benchmarks/results', { recursive: true });
writeFileSync(
  'benchmarks/results/explain.json',
  `${JSON.stringify({ runs: RUNS, seed: SEED, results }, null, 2)}\n`,
);
