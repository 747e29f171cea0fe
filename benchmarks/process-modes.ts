/**
 * Why a suite calls a change on at least MIN_PAIRS_TO_CALL pairs (src/stats/sequential.ts):
 * the 20%-trimmed mean's interval at small n when a benchmark's processes fall into discrete
 * modes — a memory layout that makes a whole process slower, or a shared vCPU's slow phase as
 * long as a process (1.85–2 times as slow on this project's VM). Each pair's log ratio is
 * within-process noise (normal, `--within`, default 1%: the fastest of ten parts) plus
 * log(1.85) when head's process fell into the slow mode, minus it when base's did. duetkit's
 * own trimmedMean interval (99%), 20,000 experiments a case and size:
 *
 *   A/A          both sides slow in 15% of their processes: P(interval beyond ±5%), a false call;
 *   modes        base slow in half its processes, head never, head 32% slower than base's fast
 *                mode (itertools' batching/nth/2 after an unrelated change: 2.83 or 5.2 µs
 *                against 3.74): the population's trimmed mean is −2.8%, inside ±5%, so every
 *                call beyond ±5% is wrong;
 *   modes −18.5% base slow in 40% of its processes, head never: a real change of the trimmed
 *                mean (−18.5%) that every `unchanged` misses — all five of a look's base
 *                processes fast happens 0.6⁵ = 7.8% of the time;
 *   clean +35%   a change in every process and no modes: P(call), the power the floor keeps.
 *
 *   node --import tsx benchmarks/process-modes.ts [--experiments 20000] [--within 0.01]
 *
 * Appends nothing: it writes benchmarks/results/process-modes.json and prints the table.
 */
import { writeFileSync } from 'node:fs';
import { numberFlag } from './args.js';
import { createRng, type Rng } from '../src/stats/rng.js';
import { trimmedMean } from '../src/stats/trimmed-mean.js';

const argv = process.argv.slice(2);
const EXPERIMENTS = numberFlag(argv, '--experiments', '20000');
const WITHIN = numberFlag(argv, '--within', '0.01');
const LEVEL = 0.99;
const THRESHOLD = Math.log(1.05);
const SLOW = Math.log(1.85);
const SIZES = [5, 6, 8, 10, 12, 15, 20];

interface Case {
  name: string;
  /** One pair's log ratio. */
  draw: (rng: Rng) => number;
  /** The population's 20%-trimmed mean of the log ratio (what the interval estimates). */
  truth: number;
}

/** The 20%-trimmed mean of a two-point distribution: `a` with probability 1 − p, else `b`. */
function trimmedOfTwo(a: number, b: number, p: number): number {
  const points = [
    { x: Math.min(a, b), w: a < b ? 1 - p : p },
    { x: Math.max(a, b), w: a < b ? p : 1 - p },
  ];
  let start = 0;
  let sum = 0;
  let kept = 0;
  for (const { x, w } of points) {
    const keep = Math.max(0, Math.min(start + w, 0.8) - Math.max(start, 0.2));
    sum += keep * x;
    kept += keep;
    start += w;
  }
  return sum / kept;
}

const noise = (rng: Rng): number => WITHIN * rng.nextNormal();
const mode = (rng: Rng, p: number): number => (rng.nextFloat() < p ? SLOW : 0);
const shift = Math.log(3740 / 2830);
const CASES: Case[] = [
  {
    name: 'A/A, 15% slow processes a side',
    draw: (r) => noise(r) + mode(r, 0.15) - mode(r, 0.15),
    truth: 0,
  },
  {
    name: 'modes: base slow in half its processes (truth −2.8%)',
    draw: (r) => noise(r) + shift - mode(r, 0.5),
    truth: trimmedOfTwo(shift, shift - SLOW, 0.5),
  },
  {
    name: 'modes: base slow in 40% of its processes, head never (truth −18.5%)',
    draw: (r) => noise(r) - mode(r, 0.4),
    truth: trimmedOfTwo(0, -SLOW, 0.4),
  },
  { name: 'clean +35%', draw: (r) => noise(r) + Math.log(1.35), truth: Math.log(1.35) },
];

const rng = createRng(21);
const rows: { case: string; n: number; called: number; unchanged: number; truth: number }[] = [];
for (const c of CASES) {
  for (const n of SIZES) {
    let called = 0;
    let unchanged = 0;
    const d = new Float64Array(n);
    for (let e = 0; e < EXPERIMENTS; e++) {
      for (let i = 0; i < n; i++) d[i] = c.draw(rng);
      d.sort();
      const t = trimmedMean(d, LEVEL, 0.2);
      if (t.lower > THRESHOLD || t.upper < -THRESHOLD) called++;
      if (t.lower >= -THRESHOLD && t.upper <= THRESHOLD) unchanged++;
    }
    rows.push({
      case: c.name,
      n,
      called: called / EXPERIMENTS,
      unchanged: unchanged / EXPERIMENTS,
      truth: c.truth,
    });
  }
}

for (const [what, key] of [
  ['lies beyond ±5% (a call)', 'called'],
  ['lies inside ±5% (`unchanged`)', 'unchanged'],
] as const) {
  console.log(`\nP(the 99% trimmed-mean interval ${what}), ${EXPERIMENTS} experiments a cell`);
  console.log(`| case | ${SIZES.map((n) => `n = ${n}`).join(' | ')} |`);
  console.log(`|---|${SIZES.map(() => '--:').join('|')}|`);
  for (const c of CASES) {
    const cells = rows.filter((r) => r.case === c.name).map((r) => `${(100 * r[key]).toFixed(1)}%`);
    console.log(`| ${c.name} | ${cells.join(' | ')} |`);
  }
}
writeFileSync(
  'benchmarks/results/process-modes.json',
  `${JSON.stringify({ date: new Date().toISOString(), experiments: EXPERIMENTS, within: WITHIN, rows }, null, 1)}\n`,
);
