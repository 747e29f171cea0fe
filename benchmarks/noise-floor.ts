/**
 * The machine's noise floor for a large suite, without duetkit's scheduler: how widely the
 * pair ratios of an A/A scatter when a Go suite's benchmarks are timed by plain pinned
 * processes in three arrangements, and what that means for the budget any method needs.
 *
 *   back-to-back  base and head one after the other on CPU 1 (random order), CPU 0 idle:
 *                 randomized interleaved trials (RMIT) with no overhead of ours;
 *   together      base and head at the same time, one on each CPU (random sides): a duet;
 *   two streams   two back-to-back streams at once, one per CPU, on two different
 *                 benchmarks: RMIT using both CPUs.
 *
 * Each process runs one benchmark with a fixed iteration count sized to `--ms` of work
 * (`-test.benchtime Nx`, GOMAXPROCS=1), as duetkit's suite plan does. For each arrangement:
 * the spread of the log pair ratios per benchmark (sd, and a robust sd from the median
 * absolute deviation), the wall seconds a pair costs the machine, and from these the pairs a
 * benchmark needs for a 99% interval of a given half-width in a family of `--family`
 * benchmarks (Bonferroni, normal quantile), and the machine minutes for the whole family.
 * That is a floor: it assumes intervals exactly as wide as the spread allows and no cost
 * beyond the processes themselves.
 *
 *   node --import tsx benchmarks/noise-floor.ts [--benchmarks 12] [--rounds 30] [--ms 20]
 *        [--parts 1] [--family 100] [--seed 1] [--out benchmarks/results/noise-floor.json]
 *
 * Uses the fastjson copies that `npm run bench:suites -- --prepare` fetched (base and aa,
 * identical sources). Run it under `flock -x /tmp/bench.lock` on the shared machine. The run
 * is appended to --out.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { numberFlag } from './args.js';
import { cacheDir } from './suites/suite.js';
import { escapeRegExp } from '../src/formats/collector.js';
import {
  mean,
  median,
  medianAbsoluteDeviation,
  standardDeviation,
} from '../src/stats/descriptive.js';
import { normalPpf } from '../src/stats/normal.js';
import { studentTPpf } from '../src/stats/student-t.js';
import { createRng } from '../src/stats/rng.js';
import { partIterations } from '../src/suite/prepare-go.js';
import { MIN_OPS_PER_PART } from '../src/suite/schema.js';

const argv = process.argv.slice(2);
const BENCHMARKS = numberFlag(argv, '--benchmarks', '12');
const ROUNDS = numberFlag(argv, '--rounds', '30');
const MS = numberFlag(argv, '--ms', '20');
const FAMILY = numberFlag(argv, '--family', '100');
const SEED = numberFlag(argv, '--seed', '1');
/**
 * Timed parts a process runs its `--ms` as (go's -test.count, each part a share of the
 * iterations; a benchmark gets as many as give every part 20 operations, at most this many, as
 * duetkit's `suite.parts: auto` does): with more than 1, each pair is read three ways — the fastest part
 * of each process (duetkit's `suite.within: fastest`), the median part, and the mean of the
 * parts (what one run of all the iterations reports) — so the three can be compared on the
 * same processes.
 */
const PARTS = numberFlag(argv, '--parts', '1');
/** duetkit's rule (`suite.parts: auto`): at most PARTS parts, each of MIN_OPS_PER_PART or more. */
const partsOf = (iterations: number): number =>
  Math.max(1, Math.min(PARTS, Math.floor(iterations / MIN_OPS_PER_PART)));
const outIndex = argv.indexOf('--out');
const OUT = outIndex < 0 ? 'benchmarks/results/noise-floor.json' : argv[outIndex + 1]!;

const root = path.join(cacheDir(), 'go-fastjson-v1.6.10');
if (!existsSync(path.join(root, 'base'))) {
  console.error(`${root}/base is missing: run npm run bench:suites -- --prepare first`);
  process.exit(2);
}
const env = { ...process.env, GOMAXPROCS: '1', GOFLAGS: '-modcacherw' };
const binaries = ['base', 'aa'].map((copy) => {
  const out = path.join(os.tmpdir(), `duetkit-noise-floor-${copy}.test`);
  execFileSync('go', ['test', '-c', '-o', out, '.'], { cwd: path.join(root, copy), env });
  return out;
});
const cwd = path.join(root, 'base');

interface Line {
  name: string;
  n: number;
  nsPerOp: number;
}

function parse(stdout: string): Line[] {
  const lines: Line[] = [];
  for (const line of stdout.split('\n')) {
    const m = /^(Benchmark\S+)\s+(\d+)\s+([\d.]+) ns\/op/.exec(line);
    if (m) lines.push({ name: m[1]!, n: Number(m[2]), nsPerOp: Number(m[3]) });
  }
  return lines;
}

const pattern = (name: string): string =>
  name
    .split('/')
    .map((p) => `^${escapeRegExp(p)}$`)
    .join('/');

/** One process: the benchmark `iterations` times, pinned to `cpu`; its ns/op and wall time. */
function runOne(
  binary: string,
  name: string,
  iterations: number,
  cpu: number,
): Promise<{ nsPerOp: number; parts: number[]; wallMs: number }> {
  const t0 = performance.now();
  const child = spawn(
    'taskset',
    [
      '-c',
      String(cpu),
      binary,
      '-test.run=^$',
      `-test.bench=${pattern(name)}`,
      `-test.benchtime=${partIterations(iterations, partsOf(iterations))}x`,
      `-test.count=${partsOf(iterations)}`,
    ],
    { cwd, env, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('close', () => {
      const parts = parse(out)
        .filter((l) => l.name === name)
        .map((l) => l.nsPerOp);
      if (parts.length === 0) reject(new Error(`${name}: no result in ${out.slice(0, 200)}`));
      else resolve({ nsPerOp: parts[0]!, parts, wallMs: performance.now() - t0 });
    });
  });
}

// calibrate: every benchmark once at -benchtime MS, then a spread sample of them by ns/op
const calibration = parse(
  execFileSync(
    'taskset',
    ['-c', '1', binaries[0]!, '-test.run=^$', '-test.bench=.', `-test.benchtime=${MS}ms`],
    { cwd, env, maxBuffer: 1 << 26 },
  ).toString(),
).filter((l) => !l.name.endsWith('/'));
calibration.sort((a, b) => a.nsPerOp - b.nsPerOp);
const step = calibration.length / BENCHMARKS;
const chosen = Array.from(
  { length: Math.min(BENCHMARKS, calibration.length) },
  (_, i) => calibration[Math.floor(i * step + step / 2)]!,
).map((l) => ({ ...l, iterations: Math.max(1, Math.round((MS * 1e6) / l.nsPerOp)) }));

type Arrangement = 'back-to-back' | 'together' | 'two streams';
/** How a process's parts become its value (one reading when the process is one part). */
const READINGS: Record<string, (parts: number[]) => number> =
  PARTS > 1
    ? {
        [`fastest of ${PARTS} parts`]: (p) => Math.min(...p),
        [`median of ${PARTS} parts`]: (p) => median(p),
        [`mean of ${PARTS} parts`]: (p) => mean(p),
      }
    : { 'one run': (p) => p[0]! };
const rng = createRng(SEED * 7919 + 17);
const ARRANGEMENTS: Arrangement[] = ['back-to-back', 'together', 'two streams'];
const label = (a: Arrangement, reading: string): string => (PARTS > 1 ? `${a}, ${reading}` : a);
const ratios: Record<string, Record<string, number[]>> = {};
const wall: Record<string, { ms: number; pairs: number }> = {};
for (const a of ARRANGEMENTS)
  for (const r of Object.keys(READINGS)) {
    ratios[label(a, r)] = {};
    wall[label(a, r)] = { ms: 0, pairs: 0 };
  }
/** Each reading's log ratio head/base of one pair of processes. */
function logRatios(base: number[], head: number[]): Record<string, number> {
  return Object.fromEntries(
    Object.entries(READINGS).map(([r, f]) => [r, Math.log(f(head) / f(base))]),
  );
}
function record(a: Arrangement, name: string, x: Record<string, number>, ms: number, pairs = 1) {
  for (const [r, v] of Object.entries(x)) {
    (ratios[label(a, r)]![name] ??= []).push(v);
    wall[label(a, r)]!.ms += ms / pairs;
    wall[label(a, r)]!.pairs += 1;
  }
}

async function backToBackPair(
  b: (typeof chosen)[number],
  cpu: number,
): Promise<Record<string, number>> {
  const headFirst = rng.nextIndex(2) === 1;
  const order = headFirst ? [1, 0] : [0, 1];
  const r: number[][] = [];
  for (const v of order) r[v] = (await runOne(binaries[v]!, b.name, b.iterations, cpu)).parts;
  return logRatios(r[0]!, r[1]!);
}

for (let round = 0; round < ROUNDS; round++) {
  for (const [i, b] of chosen.entries()) {
    // back-to-back on CPU 1
    let t = performance.now();
    const alone = await backToBackPair(b, 1);
    record('back-to-back', b.name, alone, performance.now() - t);
    // together: one side on each CPU, sides drawn at random
    t = performance.now();
    const swap = rng.nextIndex(2) === 1;
    const [base, head] = await Promise.all([
      runOne(binaries[0]!, b.name, b.iterations, swap ? 1 : 0),
      runOne(binaries[1]!, b.name, b.iterations, swap ? 0 : 1),
    ]);
    record('together', b.name, logRatios(base.parts, head.parts), performance.now() - t);
    // two streams: this benchmark's pair on one CPU while the next one's pair runs on the other
    const other = chosen[(i + 1 + round) % chosen.length]!;
    if (other !== b) {
      t = performance.now();
      const cpu = rng.nextIndex(2) === 1 ? 0 : 1;
      const [x, y] = await Promise.all([backToBackPair(b, cpu), backToBackPair(other, 1 - cpu)]);
      const ms = performance.now() - t;
      record('two streams', b.name, x, ms, 2);
      record('two streams', other.name, y, ms, 2);
    }
  }
  process.stderr.write(`round ${round + 1}/${ROUNDS}\r`);
}

const robustSd = (xs: number[]): number => 1.4826 * medianAbsoluteDeviation(xs);

const z = normalPpf(1 - 0.01 / 2 / FAMILY);
const GAMMA = 0.2;
function winsorizedSd(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const g = Math.floor(GAMMA * s.length);
  const w = s.map((x) => Math.min(s[s.length - g - 1]!, Math.max(s[g]!, x)));
  return standardDeviation(w);
}
/** Fewest pairs whose trimmed-mean interval (99%, Bonferroni over the family) is ≤ halfWidth. */
function pairsFor(winsorized: number, halfWidth: number): number {
  for (let n = 5; n <= 5000; n++) {
    const df = n - 2 * Math.floor(GAMMA * n) - 1;
    const t = studentTPpf(1 - 0.01 / 2 / FAMILY, df);
    if ((t * winsorized) / ((1 - 2 * GAMMA) * Math.sqrt(n)) <= halfWidth) return n;
  }
  return Infinity;
}
const arrangements = Object.keys(ratios).map((arrangement) => {
  const per = Object.entries(ratios[arrangement]!).map(([name, xs]) => ({
    name,
    pairs: xs.length,
    sd: standardDeviation(xs),
    robustSd: robustSd(xs),
    mean: mean(xs),
    winsorizedSd: winsorizedSd(xs),
  }));
  const medianSd = median(per.map((p) => p.sd));
  const medianRobustSd = median(per.map((p) => p.robustSd));
  const secondsPerPair = wall[arrangement]!.ms / 1000 / wall[arrangement]!.pairs;
  // duetkit's interval: the 20%-trimmed mean's Tukey–McLaughlin interval at the family's
  // Bonferroni level; its half-width at n pairs, with the winsorized sd this arrangement showed
  const need = (halfWidth: number): { pairs: number; minutes: number } => {
    const pairs = median(per.map((p) => pairsFor(p.winsorizedSd, halfWidth)));
    return { pairs, minutes: (pairs * secondsPerPair * FAMILY) / 60 };
  };
  return {
    arrangement,
    medianSd,
    medianRobustSd,
    secondsPerPair,
    forHalfWidth4: need(0.04),
    forHalfWidth2: need(0.02),
    perBenchmark: per,
  };
});

const run = {
  date: new Date().toISOString(),
  loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
  benchmarks: chosen.map((b) => ({ name: b.name, nsPerOp: b.nsPerOp, iterations: b.iterations })),
  rounds: ROUNDS,
  msPerProcess: MS,
  parts: PARTS,
  family: FAMILY,
  z,
  arrangements,
};
const previous: unknown[] = existsSync(OUT)
  ? (JSON.parse(readFileSync(OUT, 'utf8')) as unknown[])
  : [];
writeFileSync(OUT, JSON.stringify([...previous, run], null, 2) + '\n');
console.log(
  `load ${run.loadAverage.join(' ')}; ${chosen.length} benchmarks × ${ROUNDS} rounds, ${MS} ms a process in ${PARTS} part(s); z = ${z.toFixed(2)} (99%, family ${FAMILY})`,
);
console.log(
  '| arrangement | median sd of log pair ratio | robust sd (MAD) | s a pair | trimmed-mean pairs, minutes for ±4% | for ±2% |',
);
for (const a of arrangements)
  console.log(
    `| ${a.arrangement} | ${(a.medianSd * 100).toFixed(1)}% | ${(a.medianRobustSd * 100).toFixed(1)}% | ${a.secondsPerPair.toFixed(3)} | ${a.forHalfWidth4.pairs}, ${a.forHalfWidth4.minutes.toFixed(1)} | ${a.forHalfWidth2.pairs}, ${a.forHalfWidth2.minutes.toFixed(1)} |`,
  );
