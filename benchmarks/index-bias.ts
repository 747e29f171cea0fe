/**
 * Does a duet favour one version by its index? The same C program (benchmarks/fidelity/
 * programs/work.c, a dependent xorshift chain) compiled twice into byte-identical binaries in
 * two directories, run as base and head of a command duet (wall time, `--budget` each), over
 * several seeds, then with the two directories swapped. An unbiased harness gives changes
 * scattered around 0 in both orders, the 99% interval excluding 0 in about 1% of runs
 * (issue 25: the mean was −0.097% before the rounds were counterbalanced).
 *
 *   node --import tsx benchmarks/index-bias.ts [--seeds 6] [--swapped 3] [--budget 20] [--ms 58]
 *
 * Appends every run to benchmarks/results/index-bias.json. Needs a quiet machine: run it
 * under `flock -x`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { numberFlag } from './args.js';

const argv = process.argv.slice(2);
const seeds = numberFlag(argv, '--seeds', '6');
const swapped = numberFlag(argv, '--swapped', '3');
const budget = numberFlag(argv, '--budget', '20');
const targetMs = numberFlag(argv, '--ms', '58');
const RESULTS = 'benchmarks/results/index-bias.json';
const SOURCE = 'benchmarks/fidelity/programs/work.c';

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
for (let s = 1; s <= seeds; s++) outcomes.push(duet(s, dirs[0]!, dirs[1]!, 'one→two'));
for (let s = 1; s <= swapped; s++) outcomes.push(duet(100 + s, dirs[1]!, dirs[0]!, 'two→one'));
const stored = existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, 'utf8')) as unknown[]) : [];
writeFileSync(RESULTS, `${JSON.stringify([...stored, ...outcomes], null, 1)}\n`);
for (const o of outcomes) {
  console.log(
    `${o.order} seed ${o.seed}: ${(o.change * 100).toFixed(3)}% [${(o.lower * 100).toFixed(3)}%, ${(o.upper * 100).toFixed(3)}%] at ${o.pairs} pairs${o.excludesZero ? ' (excludes 0)' : ''}`,
  );
}
const mean = outcomes.reduce((a, o) => a + o.change, 0) / outcomes.length;
console.log(
  `mean ${(mean * 100).toFixed(3)}% over ${outcomes.length} runs; ${outcomes.filter((o) => o.excludesZero).length} intervals exclude 0`,
);
