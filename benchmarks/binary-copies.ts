/**
 * Does the same binary run at a speed of its own depending on which file it is run from?
 * One fastjson test binary (`go test -c` of the base copy that `npm run bench:suites --
 * --prepare` fetched) is copied `--copies` times (`copyBinary`: the same bytes, new files, new pages
 * in the page cache); each copy then runs one benchmark `--runs` times, the copies in a random
 * order each round, pinned to CPU 1 (`taskset`), GOMAXPROCS=1, a process's value the fastest of
 * `--parts` parts (as duetkit's `suite.within: fastest`). Per copy: the median of its runs;
 * the copies whose median is more than `--margin` (default 4%) above the median of all copies
 * are listed, with how consistently (every one of their runs above that line, or not).
 *
 * Why: in a 2-minute RMIT A/A of fastjson (BENCHMARKS.md, "Large suites", 2026-11-29, 10:44)
 * every base process of `ArenaTypicalUse` ran at 263–270 ns/op and every head process at
 * 242–249 — two builds of the same code, one of them 8% slower in every process of that run,
 * and called `improvement`. duetkit builds each version's binary afresh per run.
 *
 *   node --import tsx benchmarks/binary-copies.ts [--copies 16] [--runs 5]
 *        [--bench '^BenchmarkArenaTypicalUse$'] [--benchtime 8000x] [--parts 10] [--margin 0.04]
 *        [--seed 1] [--out benchmarks/results/binary-copies.json]
 *
 * Run it under `flock -x /tmp/bench.lock` on the shared machine; the run is appended to --out.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { numberFlag, stringFlag } from './args.js';
import { cacheDir } from './suites/suite.js';
import { median } from '../src/stats/descriptive.js';
import { createRng } from '../src/stats/rng.js';
import { shuffled } from '../src/runner/modes/types.js';
import { copyBinary } from '../src/suite/prepare-go.js';

const argv = process.argv.slice(2);
const COPIES = numberFlag(argv, '--copies', '16');
const RUNS = numberFlag(argv, '--runs', '5');
const PARTS = numberFlag(argv, '--parts', '10');
const MARGIN = numberFlag(argv, '--margin', '0.04');
const SEED = numberFlag(argv, '--seed', '1');
const BENCH = stringFlag(argv, '--bench', '^BenchmarkArenaTypicalUse$');
const BENCHTIME = stringFlag(argv, '--benchtime', '8000x');
const OUT = stringFlag(argv, '--out', 'benchmarks/results/binary-copies.json');

const pkg = path.join(cacheDir(), 'go-fastjson-v1.6.10', 'base');
if (!existsSync(pkg)) {
  throw new Error(`${pkg} is missing: run npm run bench:suites -- --prepare first`);
}
const env = {
  ...process.env,
  GOMODCACHE: path.join(cacheDir(), 'gomodcache'),
  GOFLAGS: '-modcacherw',
};
const dir = mkdtempSync(path.join(os.tmpdir(), 'duetkit-copies-'));
try {
  const built = path.join(dir, 'built.test');
  execFileSync('go', ['test', '-c', '-o', built, '.'], { cwd: pkg, env, stdio: 'ignore' });
  // the copies duetkit's Go suites draw from (prepare-go.ts), the built file itself left out
  const copies = (await copyBinary(built, COPIES + 1)).slice(1);
  const rng = createRng(SEED);
  const runs: number[][] = copies.map(() => []);
  for (let r = 0; r < RUNS; r++) {
    for (const c of shuffled(copies.length, rng)) {
      const out = execFileSync(
        'taskset',
        [
          '-c',
          '1',
          copies[c]!,
          '-test.run=^$',
          `-test.bench=${BENCH}`,
          `-test.benchtime=${BENCHTIME}`,
          `-test.count=${PARTS}`,
        ],
        { cwd: pkg, env: { ...env, GOMAXPROCS: '1' }, encoding: 'utf8' },
      );
      const parts = [...out.matchAll(/\s([\d.]+) ns\/op/g)].map((m) => Number(m[1]));
      if (parts.length === 0) throw new Error(`copy ${c + 1}: no ns/op in its output:\n${out}`);
      runs[c]!.push(Math.min(...parts));
    }
  }
  const medians = runs.map((r) => median(r));
  const all = median(medians);
  const line = all * (1 + MARGIN);
  const apart = medians.flatMap((m, c) =>
    m > line
      ? [
          {
            copy: c + 1,
            median: m,
            excess: m / all - 1,
            everyRunAbove: runs[c]!.every((v) => v > line),
          },
        ]
      : [],
  );
  const entry = {
    date: new Date().toISOString(),
    loadAverage: os.loadavg(),
    bench: BENCH,
    benchtime: BENCHTIME,
    parts: PARTS,
    copies: COPIES,
    runs: RUNS,
    medianOfCopies: all,
    perCopy: runs.map((r, c) => ({ copy: c + 1, median: medians[c], runs: r })),
    apart,
  };
  const stored = existsSync(OUT) ? (JSON.parse(readFileSync(OUT, 'utf8')) as unknown[]) : [];
  stored.push(entry);
  writeFileSync(OUT, `${JSON.stringify(stored, null, 1)}\n`);
  console.log(
    `${COPIES} copies × ${RUNS} runs, ${BENCH}: copies' median ${all.toFixed(1)} ns/op; ` +
      `apart by more than ${(MARGIN * 100).toFixed(0)}%: ${
        apart.length === 0
          ? 'none'
          : apart
              .map(
                (a) =>
                  `copy ${a.copy} +${(a.excess * 100).toFixed(1)}%${a.everyRunAbove ? ' (every run)' : ''}`,
              )
              .join(', ')
      }`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
