/**
 * `duetkit bisect` on real code: the `yaml` package (2.x, its published dist, the copy npm
 * installed for duetkit) in a git repository built here, 64 commits after `good`, each a
 * small change; at one commit a slowdown is planted inside `yaml`'s own `parse()`: a loop of
 * integer arithmetic whose length is the planted fraction of a whole run's median time
 * (start-up included), both timed on the good commit at the same moment. The benchmark is
 * `node bench.js` (two parses of a 100-entry document). The slowdown is CPU work, not a spin
 * on the clock: a spin of fixed wall time is a larger share of a run when the machine is
 * quiet and a smaller one when it is loaded, so on a shared machine the step's size drifted
 * between the first duet and the probes (a planted 20% measured +33% good against bad and
 * about +15% in the probes), and the probes were placed wrongly against it.
 * Variants: slowdowns of 20%, 5% and 2% at a random commit; 5% with a commit before it that
 * does not build (its setup fails); two planted steps (10% and 10%) in one range; an A/A range
 * (nothing planted: no culprit may be named). Each trial runs `runBisect` (real duets through
 * the run pipeline) and records whether the exact commit was named, the duets against
 * log2(N) + 2 and the machine time.
 *
 * Side by side at equal machine time (`--methods duet,sequential,git-bisect`): each range is
 * also searched by two sequential bisections that time one commit at a time, alone, given the
 * wall time the duet bisection took (`--seconds S` when the duets are not run):
 *  - `sequential` (asv find's way): good and bad timed alone first (their stored results); if
 *    bad's median is not beyond the threshold from good's, no commit is named; otherwise a
 *    binary search, each probe's median classed by the nearer of the two ends;
 *  - `git-bisect`: `git bisect run` with a threshold script: good timed once (the script's
 *    baseline), then each step times its commit and exits 1 (bad) when its median is beyond
 *    good's by more than the threshold, 0 otherwise (125: skip, a commit that does not build);
 *    the culprit is git's `refs/bisect/bad` at the end, so it always names a commit.
 * Each gets as many runs per timed commit as fit the duets' time for its expected number of
 * timed commits (ceil(log2 N) probes, plus the two ends or good's baseline).
 * `--mode rmit` runs each probe's two commits one at a time in randomized interleaved rounds
 * (the same pairs, half the concurrency) instead of as duets; `--mode auto` measures good
 * against bad in both designs first and probes with the more precise per second (the CLI's
 * default with a command). `--budget D`: most duets per bisection (default: the CLI's).
 * `--noise`: `duetkit noise --threads 2 --load 0.5` runs beside each bisection.
 *
 * `--range real` (issue 24's real history): instead of planted edits of one published
 * version, the range is golang.org/x/exp's own 64 consecutive first-parent commits after
 * d63ba01acd4b (2023-08-01), pinned in benchmarks/bisect/golang-x-exp.json (hashes,
 * pseudo-versions, subjects, zip hashes; made by bisect/probe-go-proxy.sh and
 * bisect/pin-range.ts). Each commit's module zip is fetched through the Go module proxy into
 * the benchmarks' cache and committed as it is; the 4 commits the proxy does not serve stay
 * in the range as commits that do not build. The workload is the library's own
 * BenchmarkPerm30 (package rand) in the test binary each commit's setup builds
 * (`go test -c`), read as `go` output (ns/op, `-test.benchtime 100000x`, `--benchtime N`);
 * the slowdown is planted at the top of `(*Rand).Perm`, its result feeding `n` (so the CPU
 * cannot hide it beside Perm's own work). Variants 20%, 5%, 2%, two steps of 10% (at two drawn
 * commits) and A/A; the
 * sequential methods time the same binary alone (ns/op), building each commit they time.
 * Results go to benchmarks/results/bisect-real.json.
 *
 *   node --import tsx benchmarks/bisect.ts [--range planted|real] [--trials 1] [--commits 64]
 *     [--seed 1] [--iterations 30] [--variants 20%,A/A] [--methods duet,sequential,git-bisect]
 *     [--mode duet|rmit|auto] [--budget D] [--noise] [--seconds S] [--benchtime N] [--out FILE] [--append]
 *   (under flock -x /tmp/bench.lock on the shared machine; --append adds this run's trials to
 *   those already in --out, so a long measurement can be split into several holds of the lock
 *   with different seeds). The file is written after every trial.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { numberFlag } from './args.js';
import { withNoise } from './noise-neighbour.js';
import { runBisect } from '../src/pipeline/bisect-run.js';
import { bisectScenario } from '../src/bisect/workload.js';
import type { StepRecord } from '../src/contracts/bisect.js';
import { createRng } from '../src/stats/rng.js';
import { checkRange, plantable, plantGo, type RealRange } from './bisect/real-range.js';
import { cacheDir } from './suites/suite.js';

const argv = process.argv.slice(2);
const TRIALS = numberFlag(argv, '--trials', '1');
const COMMITS = numberFlag(argv, '--commits', '64');
const SEED = numberFlag(argv, '--seed', '1');
const THRESHOLD = 0.01;
const require = createRequire(import.meta.url);
const YAML_DIR = path.dirname(require.resolve('yaml/package.json'));
const YAML_VERSION = (
  JSON.parse(readFileSync(path.join(YAML_DIR, 'package.json'), 'utf8')) as { version: string }
).version;

const DOC = Array.from(
  { length: 100 },
  (_, i) =>
    `item${i}:\n  name: "entry ${i}"\n  tags: [a, b, c]\n  size: ${i * 17}\n  ok: ${i % 2 === 0}`,
).join('\n');

/**
 * The planted spin per parse: a fraction of one whole run (`node bench.js`, start-up
 * included: what a duet measures), timed as the median of 7 runs of the good commit.
 */
function runNs(dir: string): number {
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const start = process.hrtime.bigint();
    execFileSync(process.execPath, ['bench.js'], { cwd: dir, stdio: 'ignore' });
    times.push(Number(process.hrtime.bigint() - start));
  }
  return times.sort((a, b) => a - b)[3]!;
}

const PARSES = 2;

/** The planted work: `n` rounds of integer arithmetic whose result is kept (not optimized away). */
const work = (n: number) =>
  `{ let __x = 0; for (let __i = 0; __i < ${n}; __i++) __x = (Math.imul(__x, 1103515245) + __i) | 0; globalThis.__planted = __x; }`;

/** Nanoseconds per round of `work`, timed in a fresh node as the benchmark runs it (median of 7). */
function roundNs(): number {
  const n = 20_000_000;
  const script = `const t = process.hrtime.bigint(); ${work(n)} process.stdout.write(String(process.hrtime.bigint() - t));`;
  const times: number[] = [];
  for (let i = 0; i < 7; i++)
    times.push(Number(execFileSync(process.execPath, ['-e', script]).toString()) / n);
  return times.sort((a, b) => a - b)[3]!;
}

interface Variant {
  name: string;
  steps: { at: number; size: number }[];
  broken: number | null;
  /** Commits from..to (linear indexes) become a branch merged into main after from − 1. */
  merged?: { from: number; to: number };
}

/**
 * Rewrites a linear history so that commits `from`..`to` are a branch, merged into main by a
 * merge commit ("Merge pull request #4242") whose first parent is commit from − 1; the commits
 * after `to` follow the merge. Every commit keeps its tree, so each linear index keeps its
 * state; the merge has commit `to`'s. Returns the new ids by linear index (the branch's
 * commits for from..to) and the merge.
 */
function mergeBranch(
  dir: string,
  ids: readonly string[],
  from: number,
  to: number,
): { ids: string[]; merge: string } {
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: dir, stdio: 'pipe' }).toString().trim();
  const out = ids.slice(0, from);
  let tip = ids[from - 1]!;
  const commit = (i: number, ...parents: string[]) =>
    git(
      'commit-tree',
      git('rev-parse', `${ids[i]}^{tree}`),
      ...parents.flatMap((x) => ['-p', x]),
      '-m',
      git('log', '-1', '--format=%B', ids[i]!),
    );
  for (let i = from; i <= to; i++) out.push((tip = commit(i, tip)));
  const merge = git(
    'commit-tree',
    git('rev-parse', `${ids[to]}^{tree}`),
    '-p',
    ids[from - 1]!,
    '-p',
    tip,
    '-m',
    "Merge pull request #4242 from bench/branch\n\nthe branch: the range's commits " +
      `${from} to ${to}`,
  );
  tip = merge;
  for (let i = to + 1; i < ids.length; i++) out.push((tip = commit(i, tip)));
  git('update-ref', 'refs/heads/main', tip);
  git('reset', '-q', '--hard', tip);
  return { ids: out, merge };
}

function buildRepo(v: Variant): { dir: string; ids: string[]; runMs: number } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'duetkit-bench-bisect-'));
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: dir, stdio: 'pipe' }).toString().trim();
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'bench@example.com');
  git('config', 'user.name', 'bench');
  cpSync(YAML_DIR, path.join(dir, 'vendor', 'yaml'), { recursive: true });
  writeFileSync(path.join(dir, 'doc.yml'), `${DOC}\n`);
  writeFileSync(
    path.join(dir, 'bench.js'),
    `const fs = require('fs');\nconst YAML = require('./vendor/yaml');\nconst doc = fs.readFileSync(__dirname + '/doc.yml', 'utf8');\nfor (let i = 0; i < ${PARSES}; i++) YAML.parse(doc);\n`,
  );
  const api = path.join(dir, 'vendor', 'yaml', 'dist', 'public-api.js');
  const original = readFileSync(api, 'utf8');
  const head = 'function parse(src, reviver, options) {';
  if (!original.includes(head)) throw new Error(`yaml ${YAML_VERSION}: no "${head}" to plant into`);
  const run = runNs(dir);
  const round = roundNs();
  let slow = 0;
  for (let i = 0; i <= COMMITS; i++) {
    for (const s of v.steps) if (s.at === i) slow += s.size;
    const rounds = Math.round((slow * run) / PARSES / round);
    writeFileSync(
      api,
      rounds === 0 ? original : original.replace(head, `${head}\n    ${work(rounds)}`),
    );
    writeFileSync(path.join(dir, 'CHANGES.md'), `change ${i}\n`);
    if (i === v.broken) writeFileSync(path.join(dir, 'BROKEN'), 'a half-done refactoring\n');
    else rmSync(path.join(dir, 'BROKEN'), { force: true });
    git('add', '-A');
    git('commit', '-q', '-m', i === 0 ? 'good' : `change ${i} (#${1000 + i})`);
  }
  return { dir, ids: git('rev-list', '--reverse', 'HEAD').split('\n'), runMs: run / 1e6 };
}

/**
 * `--range real`: the pinned range of golang.org/x/exp's own consecutive commits
 * (benchmarks/bisect/golang-x-exp.json, made by probe-go-proxy.sh and pin-range.ts). Each
 * served commit's module zip is fetched through the Go module proxy (`go mod download`, into
 * the benchmarks' cache outside the repository: DUETKIT_BENCH_CACHE or ~/.cache/duetkit-bench,
 * `gomodcache`) and committed as it is; a commit the proxy does not serve keeps its parent's
 * files plus a `NOT-SERVED` file, so its setup fails (a commit that does not build). The
 * workload is the library's own benchmark (BenchmarkPerm30 of package rand) in the test
 * binary `go test -c` built by each commit's setup, read as `go` output (its ns/op); the
 * slowdown is integer arithmetic at the top of `(*Rand).Perm` (plantGo), `rounds` of it being the
 * planted fraction of the benchmark's ns/op on good, both timed on good before the range is
 * built.
 */
const BENCHTIME = numberFlag(argv, '--benchtime', '100000');
const goEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  GOMODCACHE: path.join(cacheDir(), 'gomodcache'),
  GOFLAGS: '-modcacherw -mod=mod -buildvcs=false',
  GOTOOLCHAIN: 'local',
});
const BENCH_ARGS = (benchmark: string) => [
  '-test.run',
  '^$',
  '-test.bench',
  `^${benchmark}$`,
  '-test.benchtime',
  `${BENCHTIME}x`,
];

/**
 * The module's files at `version`, fetched through the proxy into the cache (once), checked
 * against the pinned hash (the checksum database does not know every commit of the range).
 */
function moduleDir(module: string, version: string, sum: string): string {
  const out = execFileSync('go', ['mod', 'download', '-json', `${module}@${version}`], {
    cwd: os.tmpdir(),
    env: { ...goEnv(), GONOSUMDB: module },
    encoding: 'utf8',
  });
  const got = JSON.parse(out) as { Dir: string; Sum: string };
  if (got.Sum !== sum)
    throw new Error(`${module}@${version}: the proxy's zip hashes to ${got.Sum}, pinned ${sum}`);
  return got.Dir;
}

/** A test binary of a copy of `src` with `rounds` planted, in its own directory. */
function plantedBinary(r: RealRange, src: string, rounds: number): string {
  const work = mkdtempSync(path.join(os.tmpdir(), 'duetkit-bench-bisect-calibrate-'));
  cpSync(src, work, { recursive: true });
  execFileSync('chmod', ['-R', 'u+w', work]);
  const file = path.join(work, r.plantIn.file);
  writeFileSync(file, plantGo(readFileSync(file, 'utf8'), r.plantIn, rounds, r.plantIn.file));
  execFileSync('go', ['test', '-c', '-o', 'bench.test', r.package], { cwd: work, env: goEnv() });
  return work;
}

/** One run's ns/op of the benchmark in a binary plantedBinary built. */
function runNsPerOp(r: RealRange, work: string): number {
  const out = execFileSync(path.join(work, 'bench.test'), BENCH_ARGS(r.benchmark), {
    cwd: work,
    encoding: 'utf8',
  });
  const m = new RegExp(`^${r.benchmark}(?:-\\d+)?\\s+\\d+\\s+([\\d.]+) ns/op`, 'm').exec(out);
  if (m === null) throw new Error(`${r.benchmark}: no ns/op in the test binary's output:\n${out}`);
  return Number(m[1]);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1
    ? s[(s.length - 1) / 2]!
    : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Calibrated once per run: the benchmark's ns/op on good, and the ns of one planted round. */
let realCalibration: { opNs: number; roundNs: number; ratio: number } | null = null;
/**
 * The planted round's cost relative to the benchmark, from good and good with `probeRounds`
 * planted run alternately, 9 times each: the median of the 9 adjacent ratios. This machine's
 * speed moves in phases (BenchmarkPerm30 read ~220 ns/op for tens of seconds, then ~380:
 * BENCHMARKS.md), so the two timed apart — 5 runs of one, then 5 of the other — mixed
 * phases: two trials planted about 1% where 5% was asked. A ratio of two neighbours in time
 * is the same in either phase.
 */
function calibrateReal(r: RealRange): { opNs: number; roundNs: number; ratio: number } {
  if (realCalibration !== null) return realCalibration;
  const good = moduleDir(r.module, r.commits[0]!.version, r.commits[0]!.sum!);
  // about ten times the benchmark's own ns/op: measurable, and quick at -test.benchtime 100000x
  const probeRounds = 2_000;
  const plain = plantedBinary(r, good, 0);
  const slow = plantedBinary(r, good, probeRounds);
  try {
    const ops: number[] = [];
    const ratios: number[] = [];
    for (let i = 0; i < 9; i++) {
      const op = runNsPerOp(r, plain);
      ratios.push(runNsPerOp(r, slow) / op);
      ops.push(op);
    }
    const ratio = median(ratios);
    if (!(ratio > 1))
      throw new Error(
        `calibration: ${probeRounds} planted rounds did not slow ${r.benchmark} (ratio ${ratio})`,
      );
    const opNs = median(ops);
    // rounds = size · opNs / roundNs = size · probeRounds / (ratio − 1): the phase cancels
    realCalibration = { opNs, roundNs: (opNs * (ratio - 1)) / probeRounds, ratio };
    return realCalibration;
  } finally {
    for (const dir of [plain, slow]) rmSync(dir, { recursive: true, force: true });
  }
}

function buildRealRepo(r: RealRange, v: Variant): { dir: string; ids: string[]; runMs: number } {
  const { opNs, roundNs } = calibrateReal(r);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'duetkit-bench-bisect-real-'));
  const git = (args: string[], input?: string) =>
    execFileSync('git', args, {
      cwd: dir,
      stdio: 'pipe',
      ...(input === undefined ? {} : { input }),
    })
      .toString()
      .trim();
  git(['init', '-q', '-b', 'main']);
  git(['config', 'user.email', 'bench@example.com']);
  git(['config', 'user.name', 'bench']);
  const put = (file: string, text: string) =>
    git([
      'update-index',
      '--add',
      '--cacheinfo',
      `100644,${git(['hash-object', '-w', '--stdin'], text)},${file}`,
    ]);
  let slow = 0;
  r.commits.forEach((c, i) => {
    for (const s of v.steps) if (s.at === i) slow += s.size;
    if (c.served) {
      const src = moduleDir(r.module, c.version, c.sum!);
      // the index becomes the module's files at this commit (deleted files go, NOT-SERVED too)
      git(['--work-tree', src, 'add', '-A', '.']);
      const rounds = Math.round((slow * opNs) / roundNs);
      if (rounds > 0)
        put(
          r.plantIn.file,
          plantGo(
            readFileSync(path.join(src, r.plantIn.file), 'utf8'),
            r.plantIn,
            rounds,
            `${c.version} ${r.plantIn.file}`,
          ),
        );
    } else {
      if (v.steps.some((s) => s.at === i))
        throw new Error(`a step planted at ${i}, a commit the proxy does not serve (${c.version})`);
      put(
        'NOT-SERVED',
        `${r.module}@${c.version} is not served by the module proxy: its state cannot be fetched\n`,
      );
    }
    git([
      'commit',
      '-q',
      '--allow-empty',
      '-m',
      `${c.subject}\n\nupstream ${c.hash} (${c.version})`,
    ]);
  });
  return {
    dir,
    ids: git(['rev-list', '--reverse', 'HEAD']).split('\n'),
    runMs: (opNs * BENCHTIME) / 1e6,
  };
}

const ONLY = (() => {
  const i = argv.indexOf('--variants');
  return i < 0 ? null : argv[i + 1]!.split(/,(?! )/); // names may hold ", "
})();
const ITERATIONS = numberFlag(argv, '--iterations', '30');
const stringFlag = (flag: string, fallback: string) => {
  const i = argv.indexOf(flag);
  return i < 0 ? fallback : argv[i + 1]!;
};
const RANGE = stringFlag('--range', 'planted');
if (RANGE !== 'planted' && RANGE !== 'real')
  throw new Error(`--range: ${JSON.stringify(RANGE)}; accepted: planted, real`);
const METHOD_NAMES = ['duet', 'sequential', 'git-bisect'] as const;
type Method = (typeof METHOD_NAMES)[number];
const METHODS = stringFlag('--methods', 'duet').split(',') as Method[];
for (const m of METHODS)
  if (!METHOD_NAMES.includes(m))
    throw new Error(`--methods: ${JSON.stringify(m)} is not one of ${METHOD_NAMES.join(', ')}`);
const MODE = stringFlag('--mode', 'duet');
if (MODE !== 'duet' && MODE !== 'rmit' && MODE !== 'auto')
  throw new Error(`--mode: ${JSON.stringify(MODE)}; accepted: duet, rmit, auto`);
// auto: both designs measure good against bad, the more precise per second probes
const SCENARIO_MODE = MODE === 'auto' ? 'duet' : MODE;
const SECONDS = numberFlag(argv, '--seconds', '0');
// `--noise`: a noisy neighbour while the bisection measures (`duetkit noise`, 2 threads at 50%,
// as bench:suites --noise), not while the range is built and the plant calibrated
const NOISE = argv.includes('--noise');

// most duets a bisection may run (confirmations and repeats included); 0: the CLI's default
const BUDGET = numberFlag(argv, '--budget', '0');
if (!(Number.isInteger(BUDGET) && (BUDGET === 0 || BUDGET >= 3)))
  throw new Error(`--budget: got ${JSON.stringify(BUDGET)}; accepted: a whole number of duets ≥ 3`);
if (!METHODS.includes('duet') && !(SECONDS > 0))
  throw new Error(
    `--seconds: got ${JSON.stringify(SECONDS)}; without the duet method the sequential bisections need a positive machine time`,
  );
const REAL: RealRange | null =
  RANGE === 'real'
    ? checkRange(
        JSON.parse(
          readFileSync(path.join(import.meta.dirname, 'bisect', 'golang-x-exp.json'), 'utf8'),
        ),
        'benchmarks/bisect/golang-x-exp.json',
      )
    : null;
const rng = createRng(SEED);
// createRng's first draw for a small seed was ~0.99999 whatever the seed (1, 11, 12, 21, 22,
// 101 all gave it: every first planted commit was 62 of 64) until its state was seeded with
// SplitMix32 (src/stats/rng.ts, 2026-11-27); the first draw is still thrown away, as before
rng.nextFloat();
const PLANTABLE = REAL === null ? null : plantable(REAL.commits);
const at = () =>
  PLANTABLE === null
    ? 2 + Math.floor(rng.nextFloat() * (COMMITS - 3))
    : PLANTABLE[Math.floor(rng.nextFloat() * PLANTABLE.length)]!;
console.log(
  REAL === null
    ? `yaml ${YAML_VERSION}: ${PARSES} parses of a 100-entry document per run; ${COMMITS} commits, threshold ${THRESHOLD * 100}%, ${ITERATIONS} pairs per ${MODE} probe, ${TRIALS} trial(s) per variant; methods ${METHODS.join(', ')}`
    : `${REAL.module}: ${REAL.commits.length - 1} real commits after ${REAL.commits[0]!.version} (${REAL.commits.filter((c) => !c.served).length} not served), ${REAL.benchmark} of ${REAL.package} -test.benchtime ${BENCHTIME}x; threshold ${THRESHOLD * 100}%, ${ITERATIONS} pairs per ${MODE} probe, ${TRIALS} trial(s) per variant`,
);
const OUT = (() => {
  const i = argv.indexOf('--out');
  return i >= 0
    ? argv[i + 1]!
    : path.join('benchmarks', 'results', REAL === null ? 'bisect.json' : 'bisect-real.json');
})();
interface Run {
  seed: number;
  trials: number;
  methods?: Method[];
  mode?: string;
  budget?: number | null;
  noise?: boolean;
  load: number[];
  started: string;
}
const previous = argv.includes('--append')
  ? (JSON.parse(readFileSync(OUT, 'utf8')) as { runs: Run[]; results: unknown[] })
  : { runs: [], results: [] };
const runs: Run[] = [
  ...previous.runs,
  {
    seed: SEED,
    trials: TRIALS,
    methods: METHODS,
    mode: MODE,
    budget: BUDGET === 0 ? null : BUDGET,
    noise: NOISE,
    load: os.loadavg(),
    started: new Date().toISOString(),
  },
];
const results: unknown[] = [...previous.results];
const save = () =>
  writeFileSync(
    OUT,
    `${JSON.stringify({ ...(REAL === null ? { yaml: YAML_VERSION, commits: COMMITS } : { module: REAL.module, range: 'benchmarks/bisect/golang-x-exp.json', good: REAL.commits[0]!.version, bad: REAL.commits.at(-1)!.version, commits: REAL.commits.length - 1, notServed: REAL.commits.flatMap((c, i) => (c.served ? [] : [i])), benchmark: `${REAL.benchmark} (${REAL.package}), -test.benchtime ${BENCHTIME}x`, calibration: realCalibration }), threshold: THRESHOLD, iterations: ITERATIONS, machine: os.cpus()[0]?.model, runs, results }, null, 2)}\n`,
  );
/**
 * `merge`: a merged-branch variant whose first-parent search named the merge that brings the
 * planted commit into main (right for merged pull requests as units), and whose search inside
 * it pinned nothing.
 */
type Outcome = 'exact' | 'wrong' | 'partial' | 'none' | 'merge';
/** exact: the planted commits and no other; wrong: a commit not planted; partial: some planted ones only; none: no commit (right for A/A). */
function outcome(planted: number[], named: number[]): Outcome {
  if (named.length === 0) return 'none';
  if (named.some((n) => !planted.includes(n))) return 'wrong';
  return named.length === planted.length ? 'exact' : 'partial';
}

/**
 * A CommonJS module whose `measure()` times the benchmark of the commit checked out in the
 * current directory, alone, `n` runs one after another, and returns their median, or null
 * when the commit does not build. The planted ranges: the wall time of `node bench.js`, in ms
 * (`BROKEN`: does not build). The real range: `go test -c` (`NOT-SERVED` or a failed build:
 * does not build), then the benchmark's own ns/op in each run of the test binary. Used by the
 * sequential bisection and by `git bisect run`'s threshold script alike.
 */
function measureModule(n: number): string {
  const median = `t.sort((a, b) => a - b);
  return t.length % 2 ? t[(t.length - 1) / 2] : (t[t.length / 2 - 1] + t[t.length / 2]) / 2;`;
  if (REAL === null)
    return `const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
exports.measure = () => {
  if (fs.existsSync('BROKEN')) return null;
  const t = [];
  for (let i = 0; i < ${n}; i++) {
    const s = process.hrtime.bigint();
    execFileSync(${JSON.stringify(process.execPath)}, ['bench.js'], { stdio: 'ignore' });
    t.push(Number(process.hrtime.bigint() - s) / 1e6);
  }
  ${median}
};
`;
  return `const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
exports.measure = () => {
  if (fs.existsSync('NOT-SERVED')) return null;
  try {
    execFileSync('go', ['test', '-c', '-o', 'bench.test', ${JSON.stringify(REAL.package)}], { stdio: 'ignore' });
  } catch {
    return null;
  }
  const t = [];
  for (let i = 0; i < ${n}; i++) {
    const out = execFileSync('./bench.test', ${JSON.stringify(BENCH_ARGS(REAL.benchmark))}, { encoding: 'utf8' });
    const m = /^${REAL.benchmark}(?:-\\d+)?\\s+\\d+\\s+([\\d.]+) ns\\/op/m.exec(out);
    if (m === null) throw new Error('no ns/op in: ' + out);
    t.push(Number(m[1]));
  }
  ${median}
};
`;
}

/** The environment of the sequential bisections' runs (the Go module cache for the real range). */
const seqEnv = (): NodeJS.ProcessEnv => (REAL === null ? process.env : goEnv());

/** The benchmark of the commit checked out in `work`, measured `n` times alone (null: does not build). */
function measureIn(work: string, n: number): number | null {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'duetkit-bench-bisect-measure-'));
  try {
    const file = path.join(dir, 'measure.cjs');
    writeFileSync(file, measureModule(n));
    const out = execFileSync(
      process.execPath,
      ['-e', `process.stdout.write(JSON.stringify(require(${JSON.stringify(file)}).measure()))`],
      { cwd: work, env: seqEnv(), encoding: 'utf8' },
    );
    return JSON.parse(out) as number | null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Probes of a binary search over the range's commits. */
const PROBES = Math.ceil(Math.log2(REAL === null ? COMMITS : REAL.commits.length - 1));
/** Runs per timed commit so that `commits` timings fill `seconds` of machine time (at least 3). */
const runsPer = (seconds: number, runMs: number, commits: number) =>
  Math.max(3, Math.floor((seconds * 1000) / (commits * runMs)));

interface Timed {
  index: number;
  ms: number | null;
  class: 'good' | 'bad' | 'skipped' | 'end';
}
interface SequentialResult {
  method: 'sequential' | 'git-bisect';
  status: string;
  named: number[];
  runsPerCommit: number;
  timed: Timed[];
  /** The machine time it was given (the duets'). */
  budgetSeconds: number;
  seconds: number;
}

/** A detached worktree of `dir` at `commit`, removed after `f`. */
function inWorktree<T>(dir: string, commit: string, f: (work: string) => T): T {
  const work = mkdtempSync(path.join(os.tmpdir(), 'duetkit-bench-bisect-seq-'));
  execFileSync('git', ['worktree', 'add', '-q', '--detach', work, commit], {
    cwd: dir,
    stdio: 'pipe',
  });
  try {
    return f(work);
  } finally {
    execFileSync('git', ['worktree', 'remove', '--force', work], { cwd: dir, stdio: 'pipe' });
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * asv find's way: the ends timed alone (their stored results), nothing named unless bad's
 * median is beyond good's by the threshold, then a binary search whose probes are each timed
 * alone and classed by the nearer end. A commit that does not build is skipped (the nearest
 * other commit of the interval is timed instead).
 */
function sequentialBisect(
  dir: string,
  ids: string[],
  seconds: number,
  runMs: number,
): SequentialResult {
  const started = performance.now();
  const n = runsPer(seconds, runMs, PROBES + 2);
  return inWorktree(dir, ids[0]!, (work) => {
    const time = (i: number): number | null => {
      execFileSync('git', ['checkout', '-q', '--detach', ids[i]!], { cwd: work, stdio: 'pipe' });
      return measureIn(work, n);
    };
    const last = ids.length - 1;
    const good = time(0)!;
    const bad = time(last)!;
    const timed: Timed[] = [
      { index: 0, ms: good, class: 'end' },
      { index: last, ms: bad, class: 'end' },
    ];
    let named: number[] = [];
    let status = 'no-change';
    if ((bad - good) / good > THRESHOLD) {
      let lo = 0;
      let hi = last;
      const skipped = new Set<number>();
      for (;;) {
        const mid = Math.floor((lo + hi) / 2);
        const open = Array.from({ length: hi - lo - 1 }, (_, k) => lo + 1 + k)
          .filter((i) => !skipped.has(i))
          .sort((a, b) => Math.abs(a - mid) - Math.abs(b - mid));
        if (open.length === 0) break;
        const i = open[0]!;
        const ms = time(i);
        if (ms === null) {
          skipped.add(i);
          timed.push({ index: i, ms, class: 'skipped' });
          continue;
        }
        const likeBad = Math.abs(ms - bad) < Math.abs(ms - good);
        timed.push({ index: i, ms, class: likeBad ? 'bad' : 'good' });
        if (likeBad) hi = i;
        else lo = i;
      }
      named = [hi];
      status = 'found';
    }
    return {
      method: 'sequential' as const,
      status,
      named,
      runsPerCommit: n,
      timed,
      budgetSeconds: seconds,
      seconds: (performance.now() - started) / 1000,
    };
  });
}

/**
 * `git bisect run` with a threshold script: good's median timed once (the script's baseline),
 * each step times its commit alone and exits 1 when its median exceeds the baseline by more
 * than the threshold, else 0; 125 (skip) when the commit does not build. The culprit is
 * git's `refs/bisect/bad` at the end: git bisect always names a commit.
 */
function gitBisect(dir: string, ids: string[], seconds: number, runMs: number): SequentialResult {
  const started = performance.now();
  const n = runsPer(seconds, runMs, PROBES + 1);
  return inWorktree(dir, ids[0]!, (work) => {
    const scripts = mkdtempSync(path.join(os.tmpdir(), 'duetkit-bench-bisect-script-'));
    const log = path.join(scripts, 'steps.jsonl');
    const script = path.join(scripts, 'threshold.cjs');
    const measure = path.join(scripts, 'measure.cjs');
    writeFileSync(measure, measureModule(n));
    const good = measureIn(work, n)!;
    writeFileSync(
      script,
      `// git bisect run: exit 1 (bad) when this commit's median of ${n} runs is beyond good's by ${THRESHOLD * 100}%
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const commit = execFileSync('git', ['rev-parse', 'HEAD']).toString().trim();
const ms = require(${JSON.stringify(measure)}).measure();
fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify({ commit, ms }) + '\\n');
if (ms === null) process.exit(125);
process.exit(ms > ${good} * (1 + ${THRESHOLD}) ? 1 : 0);
`,
    );
    try {
      const git = (...args: string[]) =>
        execFileSync('git', args, { cwd: work, stdio: 'pipe', env: seqEnv() }).toString().trim();
      git('bisect', 'start', ids.at(-1)!, ids[0]!);
      const out = git('bisect', 'run', process.execPath, script);
      const bad = git('rev-parse', 'refs/bisect/bad');
      git('bisect', 'reset');
      const timed: Timed[] = [
        { index: 0, ms: good, class: 'end' },
        ...readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .map((line) => {
            const step = JSON.parse(line) as { commit: string; ms: number | null };
            return {
              index: ids.indexOf(step.commit),
              ms: step.ms,
              class:
                step.ms === null
                  ? ('skipped' as const)
                  : step.ms > good * (1 + THRESHOLD)
                    ? ('bad' as const)
                    : ('good' as const),
            };
          }),
      ];
      return {
        method: 'git-bisect' as const,
        status: /is the first bad commit/.test(out) ? 'found' : 'skipped commits left',
        named: [ids.indexOf(bad)],
        runsPerCommit: n,
        timed,
        budgetSeconds: seconds,
        seconds: (performance.now() - started) / 1000,
      };
    } finally {
      rmSync(scripts, { recursive: true, force: true });
    }
  });
}

function record(
  trial: number,
  v: Variant,
  planted: number[],
  runMs: number,
  r: SequentialResult,
): void {
  const o = outcome(planted, r.named);
  results.push({
    seed: SEED,
    trial,
    variant: v.name,
    method: r.method,
    outcome: o,
    runMs: Math.round(runMs),
    planted,
    named: r.named,
    exact: planted.length === r.named.length && planted.every((p) => r.named.includes(p)),
    status: r.status,
    runsPerCommit: r.runsPerCommit,
    timed: r.timed.map((t) => ({ ...t, ms: t.ms === null ? null : Math.round(t.ms * 100) / 100 })),
    budgetSeconds: Math.round(r.budgetSeconds),
    wallSeconds: Math.round(r.seconds),
    load: os.loadavg(),
  });
  save();
  console.log(
    `${v.name.padEnd(42)} ${r.method.padEnd(10)} planted ${JSON.stringify(planted).padEnd(9)} named ${JSON.stringify(r.named).padEnd(9)} ${o.padEnd(7)} ${r.status.padEnd(9)} ${r.timed.length} commits timed x ${r.runsPerCommit} runs  ${Math.round(r.seconds)} s (the duets: ${Math.round(r.budgetSeconds)} s)`,
  );
}

const MERGED = '5% in a merged branch';

/**
 * 5% planted at a commit drawn from a generator of its own (so the other variants' draws stay
 * those of their seeds), before the last, inside a branch of up to 8 commits merged into main:
 * the first-parent search names the merge, the search inside it (`firstParent: false`) the
 * planted commit.
 */
function mergedVariant(trial: number): Variant {
  const n = REAL === null ? COMMITS : REAL.commits.length - 1;
  const own = createRng(SEED * 7919 + trial);
  own.nextFloat(); // the first draw of a small seed is ~0.99999 (above)
  const candidates = Array.from({ length: n - 1 }, (_, i) => i + 1).filter(
    (i) => PLANTABLE === null || PLANTABLE.includes(i),
  );
  const at = candidates[Math.floor(own.nextFloat() * candidates.length)]!;
  const from = Math.max(1, at - 3);
  return {
    name: MERGED,
    steps: [{ at, size: 0.05 }],
    broken: null,
    merged: { from, to: Math.min(n - 1, from + 7) },
  };
}

/** Two different plantable commits, oldest first (the real range). */
function twoDistinct(): number[] {
  const first = at();
  let second = at();
  while (second === first) second = at();
  return [first, second].sort((x, y) => x - y);
}

for (let trial = 0; trial < TRIALS; trial++) {
  const a = at();
  const variants: Variant[] = [
    { name: '20%', steps: [{ at: a, size: 0.2 }], broken: null },
    { name: '5%', steps: [{ at: at(), size: 0.05 }], broken: null },
    { name: '2%', steps: [{ at: at(), size: 0.02 }], broken: null },
    {
      name: '5%, the commit before it does not build',
      steps: [{ at: a, size: 0.05 }],
      broken: a - 1,
    },
    {
      name: 'two steps of 10%',
      // the real range: two distinct commits the proxy serves, drawn
      steps:
        REAL === null
          ? [
              { at: Math.min(a, 20), size: 0.1 },
              { at: Math.max(a, 20) + 10, size: 0.1 },
            ].filter((s) => s.at <= COMMITS)
          : twoDistinct().map((at) => ({ at, size: 0.1 })),
      broken: null,
    },
    { name: 'A/A', steps: [], broken: null },
    mergedVariant(trial),
  ];
  if (REAL !== null)
    // the real range's own commits that the proxy does not serve are its commits that do not build
    variants.splice(
      0,
      variants.length,
      ...variants.filter((x) =>
        ['20%', '5%', '2%', 'two steps of 10%', 'A/A', MERGED].includes(x.name),
      ),
    );
  const unknown = (ONLY ?? []).filter((name) => !variants.some((x) => x.name === name));
  if (unknown.length > 0)
    throw new Error(
      `--variants: ${unknown.map((u) => JSON.stringify(u)).join(', ')} not among ${variants.map((x) => x.name).join('; ')}`,
    );
  for (const v of variants.filter((x) => ONLY === null || ONLY.includes(x.name))) {
    const built = REAL === null ? buildRepo(v) : buildRealRepo(REAL, v);
    const { dir, runMs } = built;
    // a merged branch: its commits keep their linear indexes, the merge counts as its last
    const merge =
      v.merged === undefined ? null : mergeBranch(dir, built.ids, v.merged.from, v.merged.to);
    const ids = merge?.ids ?? built.ids;
    const indexOf = (id: string) => (id === merge?.merge ? v.merged!.to : ids.indexOf(id));
    const planted = v.steps.map((s) => s.at);
    let seconds = SECONDS;
    if (METHODS.includes('duet')) {
      const scenario = await bisectScenario(
        REAL === null
          ? {
              cwd: dir,
              // the node that timed the run and the planted work: `node` on the PATH may be another
              // (the system's Node 20 here, slower to start, beside npm's Node 24)
              command: [process.execPath, 'bench.js'],
              setup: [
                'sh',
                '-c',
                'test ! -f BROKEN || { echo "BROKEN: does not build" >&2; exit 1; }',
              ],
              iterations: ITERATIONS,
              threshold: THRESHOLD,
              mode: SCENARIO_MODE,
              source: 'benchmarks/bisect.ts',
            }
          : {
              cwd: dir,
              command: ['./bench.test', ...BENCH_ARGS(REAL.benchmark)],
              format: 'go',
              setup: [
                'sh',
                '-c',
                `if [ -f NOT-SERVED ]; then cat NOT-SERVED >&2; exit 1; fi; go test -c -o bench.test ${REAL.package}`,
              ],
              iterations: ITERATIONS,
              threshold: THRESHOLD,
              mode: SCENARIO_MODE,
              source: 'benchmarks/bisect.ts',
            },
      );
      const started = performance.now();
      const report = await withNoise(NOISE, () =>
        runBisect({
          repo: dir,
          good: ids[0]!,
          bad: ids.at(-1)!,
          scenario,
          benchmark: REAL === null ? null : REAL.benchmark,
          threshold: THRESHOLD,
          budget: BUDGET === 0 ? null : BUDGET,
          // a merged branch: go inside the merge the first-parent search names
          firstParent: v.merged === undefined,
          chooseMode: MODE === 'auto',
          env: REAL === null ? process.env : goEnv(),
          signal: new AbortController().signal,
          seed: SEED + trial,
          log: (line) => console.log(`  ${new Date().toISOString().slice(11, 19)} ${line}`),
        }),
      );
      // inside a merge, the commit its branch search pinned (the merge itself when it names none)
      const pinned = (x: StepRecord) => x.unresolved === null && x.confirmed;
      const named = report.steps
        .filter(pinned)
        .flatMap((s) =>
          s.insideMerge?.status === 'found'
            ? s.insideMerge.steps.filter(pinned).map((x) => indexOf(x.culprit.id))
            : [indexOf(s.culprit.id)],
        );
      const exact = planted.length === named.length && planted.every((p) => named.includes(p));
      const mergeOnly =
        v.merged !== undefined &&
        named.length > 0 &&
        named.every((n) => n === v.merged!.to) &&
        planted.every((p) => p >= v.merged!.from && p <= v.merged!.to) &&
        report.steps.some(
          (s) => s.culprit.id === merge?.merge && s.insideMerge?.status !== 'found',
        );
      const scored: Outcome = mergeOnly ? 'merge' : outcome(planted, named);
      const row = {
        seed: SEED,
        trial,
        variant: v.name,
        method: MODE,
        // the design the probes ran in (auto: the one chosen), and the choice's two measurements
        probedWith: report.mode ?? SCENARIO_MODE,
        modeChoice: report.modeChoice ?? null,
        outcome: scored,
        runMs: Math.round(runMs),
        // the real range: this run's ns/op on good and ns per planted round
        ...(REAL === null ? {} : { calibration: realCalibration }),
        planted,
        named,
        exact,
        status: report.status,
        confirmation: report.confirmation,
        steps: report.steps.map((s) => ({
          culprit: indexOf(s.culprit.id),
          alsoPossible: s.alsoPossible.map(indexOf),
          confirmed: s.confirmed,
          change: s.confirmation?.change ?? null,
          ...(s.insideMerge === undefined
            ? {}
            : {
                insideMerge: {
                  status: s.insideMerge.status,
                  culprits: s.insideMerge.steps.map((x) => indexOf(x.culprit.id)),
                },
              }),
        })),
        ...(v.merged === undefined ? {} : { merged: v.merged }),
        remainder: report.remainder ?? null,
        probes: report.probes.map((p) => ({
          index: p.index,
          end: p.end,
          class: p.class,
          fraction: p.position?.fraction ?? null,
          duets: p.duets.length,
        })),
        duets: report.duets,
        budget: BUDGET === 0 ? null : BUDGET,
        noise: NOISE,
        expectedDuets: report.expectedDuets,
        measureSeconds: Math.round(report.measureSeconds),
        buildSeconds: Math.round(report.buildSeconds),
        wallSeconds: Math.round((performance.now() - started) / 1000),
        // the load average at the trial's end: other helpers' work outside the lock shows here
        load: os.loadavg(),
      };
      results.push(row);
      console.log(
        `${v.name.padEnd(42)} run ${Math.round(runMs)} ms, planted ${JSON.stringify(planted).padEnd(9)} named ${JSON.stringify(named).padEnd(9)} ${scored.padEnd(7)} ${report.status.padEnd(9)} good→bad ${(report.confirmation.change * 100).toFixed(2)}% [${(report.confirmation.lower * 100).toFixed(2)}, ${(report.confirmation.upper * 100).toFixed(2)}]  duets ${report.duets} (log2(N)+2 = ${report.expectedDuets})  ${row.measureSeconds} s measuring, ${row.wallSeconds} s in all`,
      );
      seconds = report.measureSeconds;
      save();
    }
    if (METHODS.includes('sequential'))
      record(trial, v, planted, runMs, sequentialBisect(dir, ids, seconds, runMs));
    if (METHODS.includes('git-bisect'))
      record(trial, v, planted, runMs, gitBisect(dir, ids, seconds, runMs));
    rmSync(dir, { recursive: true, force: true });
    save();
  }
}
