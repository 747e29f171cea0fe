/**
 * Does a duet favour one version by its index? The same C program (benchmarks/fidelity/
 * programs/work.c, a dependent xorshift chain) compiled twice into byte-identical binaries in
 * two directories, run as base and head of a command duet (wall time, `--budget` each), over
 * several seeds, then with the two directories swapped. An unbiased harness gives changes
 * scattered around 0 in both orders, the 99% interval excluding 0 in about 1% of runs
 * (issue 25: the mean was −0.097% before the rounds were counterbalanced).
 *
 *   node --import tsx benchmarks/index-bias.ts [--seeds 6] [--swapped 3] [--budget 20] [--ms 58]
 *     [--seed-from 1] [--swapped-from 101]
 *
 *   node --import tsx benchmarks/index-bias.ts --summary-since 2026-11-26T23:00Z
 *
 * Seeds run from --seed-from (one→two) and --swapped-from (two→one), so that a long series
 * can be measured in several short holds of the machine, each appending its own range.
 * Appends every run, with the commit it measured, to benchmarks/results/index-bias.json.
 * Needs a quiet machine: run it under `flock -x`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mean, standardDeviation } from '../src/stats/descriptive.js';
import { studentTPpf } from '../src/stats/student-t.js';
import { numberFlag } from './args.js';

const argv = process.argv.slice(2);

const seeds = numberFlag(argv, '--seeds', '6');
const swapped = numberFlag(argv, '--swapped', '3');
const budget = numberFlag(argv, '--budget', '20');
const targetMs = numberFlag(argv, '--ms', '58');
const seedFrom = numberFlag(argv, '--seed-from', '1');
const swappedFrom = numberFlag(argv, '--swapped-from', '101');
for (const [flag, value] of [
  ['--seeds', seeds],
  ['--swapped', swapped],
  ['--seed-from', seedFrom],
  ['--swapped-from', swappedFrom],
] as const) {
  if (!Number.isInteger(value) || value < 0)
    throw new RangeError(`${flag}: got ${value}; expected a whole number ≥ 0`);
}
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
const RESULTS = 'benchmarks/results/index-bias.json';
const SOURCE = 'benchmarks/fidelity/programs/work.c';

/**
 * `--summary-since <ISO date>`: no runs, only what the stored runs since then say, in each
 * order and together — the mean with its 99% t-interval (the runs as independent draws), their
 * spread, and how many of their own intervals exclude 0.
 */
const since = argv.indexOf('--summary-since');
if (since >= 0) {
  const from = argv[since + 1] ?? '';
  if (Number.isNaN(Date.parse(from)))
    throw new RangeError(`--summary-since: got ${JSON.stringify(from)}; expected an ISO date`);
  const stored = (JSON.parse(readFileSync(RESULTS, 'utf8')) as Outcome[]).filter(
    (o) => Date.parse(o.date) >= Date.parse(from),
  );
  for (const [label, runs] of [
    ['one→two', stored.filter((o) => o.order === 'one→two')],
    ['two→one', stored.filter((o) => o.order === 'two→one')],
    ['all', stored],
  ] as const) {
    if (runs.length < 2) continue;
    const changes = runs.map((o) => o.change);
    const m = mean(changes);
    const sd = standardDeviation(changes);
    const half = studentTPpf(0.995, runs.length - 1) * (sd / Math.sqrt(runs.length));
    const pct = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(3)}%`;
    console.log(
      `${label}: ${runs.length} runs, mean ${pct(m)} (99% t-interval [${pct(m - half)}, ${pct(m + half)}]), ` +
        `sd ${(sd * 100).toFixed(3)}%, range [${pct(Math.min(...changes))}, ${pct(Math.max(...changes))}], ` +
        `${runs.filter((o) => o.excludesZero).length} of ${runs.length} intervals exclude 0`,
    );
  }
  process.exit(0);
}

const root = mkdtempSync(path.join(os.tmpdir(), 'duetkit-index-bias-'));
const dirs = ['one', 'two'].map((name) => {
  const dir = path.join(root, name);
  mkdirSync(dir);
  execFileSync('gcc', ['-O2', '-o', path.join(dir, 'work'), path.resolve(SOURCE)], { cwd: dir });
  return dir;
});
if (!readFileSync(path.join(dirs[0]!, 'work')).equals(readFileSync(path.join(dirs[1]!, 'work'))))
  throw new Error('the two builds of work.c differ: the A/A needs byte-identical binaries');

/** Steps per ms of the chain, from one run of 2·10⁷ steps (its own printed time). */
function stepsFor(ms: number): number {
  const probe = 20_000_000;
  const out = execFileSync(path.join(dirs[0]!, 'work'), ['--jsonl', String(probe)], {
    encoding: 'utf8',
  });
  const value = (JSON.parse(out.trim().split('\n').at(-1)!) as { value: number }).value;
  return Math.round((probe / value) * ms);
}
const steps = stepsFor(targetMs);

interface Outcome {
  date: string;
  commit: string;
  order: 'one→two' | 'two→one';
  seed: number;
  budget: number;
  steps: number;
  pairs: number;
  change: number;
  lower: number;
  upper: number;
  excludesZero: boolean;
}

function duet(seed: number, base: string, head: string, order: Outcome['order']): Outcome {
  const out = mkdtempSync(path.join(root, 'run-'));
  const scenario = path.join(out, 'scenario.yml');
  writeFileSync(
    scenario,
    [
      'name: index-bias',
      'mode: duet',
      'versions:',
      `  - { name: base, path: ${base} }`,
      `  - { name: head, path: ${head} }`,
      'workload:',
      `  command: ./work ${steps}`,
      '  metric: wall',
      `budget: ${budget}s`,
      'iterations: 100000',
      '',
    ].join('\n'),
  );
  execFileSync(
    process.execPath,
    ['--import', 'tsx', 'src/cli/bin.ts', 'run', scenario, '--out', out, '--seed', String(seed)],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const report = JSON.parse(readFileSync(path.join(out, 'comparison.json'), 'utf8')) as {
    results: {
      version: string;
      comparison: { change: number; ci: { lower: number; upper: number }; n: { base: number } };
    }[];
  };
  const c = report.results.find((r) => r.version === 'head')!.comparison;
  return {
    date: new Date().toISOString(),
    commit,
    order,
    seed,
    budget,
    steps,
    pairs: c.n.base,
    change: c.change,
    lower: c.ci.lower,
    upper: c.ci.upper,
    excludesZero: c.ci.lower > 0 || c.ci.upper < 0,
  };
}

const outcomes: Outcome[] = [];
/** Appended after every run: a hold cut short keeps what it measured. */
function store(outcome: Outcome): void {
  const stored = existsSync(RESULTS)
    ? (JSON.parse(readFileSync(RESULTS, 'utf8')) as unknown[])
    : [];
  writeFileSync(RESULTS, `${JSON.stringify([...stored, outcome], null, 1)}\n`);
  outcomes.push(outcome);
}
// Alternating the two orders, so that a drift of the machine during a hold falls on both.
for (let i = 0; i < Math.max(seeds, swapped); i++) {
  if (i < seeds) store(duet(seedFrom + i, dirs[0]!, dirs[1]!, 'one→two'));
  if (i < swapped) store(duet(swappedFrom + i, dirs[1]!, dirs[0]!, 'two→one'));
}
for (const o of outcomes) {
  console.log(
    `${o.order} seed ${o.seed}: ${(o.change * 100).toFixed(3)}% [${(o.lower * 100).toFixed(3)}%, ${(o.upper * 100).toFixed(3)}%] at ${o.pairs} pairs${o.excludesZero ? ' (excludes 0)' : ''}`,
  );
}
const held = mean(outcomes.map((o) => o.change));
console.log(
  `mean ${(held * 100).toFixed(3)}% over ${outcomes.length} runs; ${outcomes.filter((o) => o.excludesZero).length} intervals exclude 0`,
);
