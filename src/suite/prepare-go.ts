import { chmod, copyFile, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { escapeRegExp } from '../formats/collector.js';
import { go } from '../formats/go.js';
import { parseCpuList } from '../isolation/cpus.js';
import { capture, type ListContext } from '../runner/list-benchmarks.js';
import { commandFailure, RunError } from '../process/errors.js';
import { runSetup } from '../runner/setup.js';
import { matchesBenchmark } from '../scenario/benchmark-pattern.js';
import { MAX_PARTS, MIN_OPS_PER_PART, type SuiteSpec } from './schema.js';
import { secondsSince, versionContext, type SuitePreparer } from './preparer.js';

/** Go flags that change the build: they go to `go test -c` (with their value, if any). */
const BUILD_FLAGS = new Map<string, boolean>([
  ['-tags', true],
  ['-race', false],
  ['-gcflags', true],
  ['-ldflags', true],
  ['-trimpath', false],
  ['-mod', true],
  ['-cover', false],
  ['-msan', false],
  ['-asan', false],
  ['-pgo', true],
]);
/** Test flags passed on to the binary as -test.<name> (with their value, if any). */
const TEST_FLAGS = new Map<string, boolean>([
  ['-benchmem', false],
  ['-cpu', true],
  ['-count', true],
  ['-timeout', true],
  ['-short', false],
  ['-benchtime', true],
  ['-bench', true],
  ['-run', true],
  ['-v', false],
]);

/** `go test [flags] [package]` taken apart. */
export interface GoTestCommand {
  build: string[];
  /** Test flags without -bench/-run/-benchtime, as -test.<flag> for the binary. */
  test: string[];
  /** The -bench regular expression (what to run), default `.`. */
  bench: string;
  benchtime: string | null;
  pkg: string;
}

/**
 * Reads a `go test` command line. Refuses, naming the argument, what a prebuilt binary cannot
 * do: several packages, or flags it does not know where to put.
 */
export function parseGoTest(argv: readonly string[]): GoTestCommand {
  if (argv[0] !== 'go' || argv[1] !== 'test') {
    throw new RunError(
      `suite.build: a prebuilt Go benchmark needs the command "go test ...", got ${JSON.stringify(argv.join(' '))}; use build: never for other commands`,
    );
  }
  const out: GoTestCommand = { build: [], test: [], bench: '.', benchtime: null, pkg: '.' };
  const packages: string[] = [];
  for (let i = 2; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('-')) {
      packages.push(arg);
      continue;
    }
    const [flag, inline] = arg.replace(/^--/, '-').split(/=(.*)/s, 2) as [string, string?];
    const known = BUILD_FLAGS.has(flag) ? 'build' : TEST_FLAGS.has(flag) ? 'test' : null;
    if (known === null) {
      throw new RunError(
        `suite.build: go test flag ${JSON.stringify(arg)} is not one duetkit knows where to pass for a prebuilt binary; accepted: ${[...BUILD_FLAGS.keys(), ...TEST_FLAGS.keys()].join(' ')} (or build: never)`,
      );
    }
    const takesValue = (known === 'build' ? BUILD_FLAGS : TEST_FLAGS).get(flag)!;
    let value: string | undefined = inline;
    if (takesValue && value === undefined) value = argv[++i];
    if (takesValue && value === undefined) {
      throw new RunError(`suite.build: go test flag ${flag} needs a value`);
    }
    if (known === 'build') out.build.push(...(value === undefined ? [flag] : [`${flag}=${value}`]));
    else if (flag === '-bench') out.bench = value!;
    else if (flag === '-benchtime') out.benchtime = value!;
    else if (flag !== '-run') {
      out.test.push(`-test.${flag.slice(1)}${value === undefined ? '' : `=${value}`}`);
    }
  }
  if (packages.length > 1) {
    throw new RunError(
      `suite.build: a prebuilt Go benchmark is one package, got ${packages.join(', ')}; write one scenario per package`,
    );
  }
  out.pkg = packages[0] ?? '.';
  return out;
}

/** A version's test binary, built once, and where it runs (the package's directory). */
export interface GoBinary {
  binary: string;
  cwd: string;
}

/** `go test -c -o <dir>/<version>.test <pkg>` in the version's directory. */
export async function buildGoBinary(
  command: GoTestCommand,
  outDir: string,
  context: ListContext,
): Promise<GoBinary> {
  await mkdir(outDir, { recursive: true });
  const binary = path.join(outDir, `${context.version}.test`);
  await runSetup(['go', 'test', '-c', '-o', binary, ...command.build, command.pkg], context);
  return { binary, cwd: path.resolve(context.cwd, command.pkg) };
}

/**
 * The argv that runs `unit` (a full benchmark name, sub-benchmarks joined by `/`); with
 * `repetitions`, that many times in the one process (`-test.count`, replacing the command's).
 */
export function goUnitArgv(
  binary: string,
  command: GoTestCommand,
  unit: string,
  iterations: number | null,
  benchtime: string | null = command.benchtime,
  repetitions: number | null = null,
): string[] {
  const pattern = unit
    .split('/')
    .map((part) => `^${escapeRegExp(part)}$`)
    .join('/');
  const time = iterations !== null ? `${iterations}x` : benchtime;
  const test =
    repetitions === null
      ? command.test
      : [...command.test.filter((f) => !f.startsWith('-test.count')), `-test.count=${repetitions}`];
  return [
    binary,
    '-test.run=^$',
    `-test.bench=${pattern}`,
    ...(time === null ? [] : [`-test.benchtime=${time}`]),
    ...test,
  ];
}

/**
 * Files each version's test binary is run from, one drawn at random for each process. The
 * same bytes in another file can run a benchmark at a speed of its own, in every process:
 * fastjson's `ArenaTypicalUse` ran 9% slower from one of 16 copies of its binary, in all five
 * runs (`npm run bench:binary-copies`; where a file's pages lie in memory, most likely) —
 * an A/A then calls a change that is a difference of files. Drawn per process, a slow file
 * is a few slow pairs among many, which the trimmed mean and the interval absorb.
 */
export const GO_BINARY_COPIES = 8;

/** `binary` and `count − 1` copies of it beside it (`x.test`, `x.1.test`, …). */
export async function copyBinary(binary: string, count: number): Promise<string[]> {
  const files = [binary];
  for (let k = 1; k < count; k++) {
    const copy = binary.replace(/(\.test)?$/, `.${k}$1`);
    await copyFile(binary, copy);
    await chmod(copy, 0o755);
    files.push(copy);
  }
  return files;
}

/** One benchmark as a calibration run found it: its full name and time per operation. */
export interface Calibrated {
  name: string;
  nsPerOp: number;
}

/**
 * Runs every selected benchmark once with `-benchtime` `seconds` (Go's own b.N ramp-up) and
 * reads each result line: the finest names the tool prints (sub-benchmarks included) and
 * their time per operation, from which a fixed iteration count per benchmark is derived.
 */
export async function calibrateGo(
  bin: GoBinary,
  command: GoTestCommand,
  seconds: number,
  context: ListContext,
): Promise<Calibrated[]> {
  const run = async (benchtime: string) => {
    const argv = [
      bin.binary,
      '-test.run=^$',
      `-test.bench=${command.bench}`,
      `-test.benchtime=${benchtime}`,
      '-test.count=1',
      ...command.test.filter((f) => !f.startsWith('-test.count')),
    ];
    const result = await capture(argv, { ...context, cwd: bin.cwd });
    const failure = { argv, version: context.version, round: null, cwd: bin.cwd };
    if (context.signal.aborted) throw new RunError('interrupted');
    if (result.code !== 0) {
      throw commandFailure(failure, `(calibrating) failed with code ${result.code}`, result.stderr);
    }
    const parsed = go.parse(result.stdout, { cwd: bin.cwd });
    // the primary metric of each benchmark is the one named by the benchmark alone
    const metrics = new Set(parsed.filter((b) => b.name.includes(' - ')).map((b) => b.name));
    return parsed
      .filter((b) => !metrics.has(b.name) && b.unit === 'ns/op')
      .map((b) => ({
        name: b.name,
        nsPerOp: b.values[0]!,
        n: Math.round((b.measuredNs ?? b.values[0]!) / b.values[0]!),
      }));
  };
  const ramped = await run(`${seconds}s`);
  // Go stops its ramp-up when the first run (b.N = 1) already took the time asked: that run
  // is cold (a benchmark's first call loads its data, grows its buffers), 14× the warm time
  // on fastjson's canada parse. Those are timed again from 2x, whose reported run follows it.
  if (ramped.every((c) => c.n > 1)) return ramped.map(({ name, nsPerOp }) => ({ name, nsPerOp }));
  const warm = new Map((await run(`${MIN_GO_ITERATIONS}x`)).map((c) => [c.name, c.nsPerOp]));
  return ramped.map((c) => ({
    name: c.name,
    nsPerOp: c.n > 1 ? c.nsPerOp : (warm.get(c.name) ?? c.nsPerOp),
  }));
}

/**
 * Seconds the test binary takes to start and run no benchmark at all (the Go runtime, the
 * package's init, whatever its tests load at init): the median of `runs` runs. What every
 * process of a benchmark costs before it measures anything.
 */
export async function goStartupSeconds(
  bin: GoBinary,
  command: GoTestCommand,
  context: ListContext,
  runs = 5,
): Promise<number> {
  const argv = [
    bin.binary,
    '-test.run=^$',
    '-test.bench=^$',
    ...command.test.filter((f) => !f.startsWith('-test.count')),
  ];
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    const result = await capture(argv, { ...context, cwd: bin.cwd });
    if (context.signal.aborted) throw new RunError('interrupted');
    if (result.code !== 0) {
      const failure = { argv, version: context.version, round: null, cwd: bin.cwd };
      throw commandFailure(failure, `(start-up) failed with code ${result.code}`, result.stderr);
    }
    times.push(secondsSince(t0));
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1]!;
}

/**
 * The environment the calibration runs in: the version's, with `GOMAXPROCS` set to the CPUs of
 * a measured slot (`slotCpus`, a kernel CPU list; null: processes run anywhere) unless the
 * scenario sets it. A measured process is pinned to its slot and Go sizes its GOMAXPROCS from
 * that; the calibration runs unpinned, and with every CPU a benchmark using `b.RunParallel`
 * runs on several goroutines and go test's GC on several threads: on a 2-vCPU VM fastjson's
 * `Parse/citm/fastjson` read 17.6 ms an operation there against 1.3 ms with GOMAXPROCS=1, and
 * `MarshalTo/canada` 35 against 3.7 — iteration counts of 2, processes measuring 3–10 ms of
 * the ~100 they took, the suite's noisiest benchmarks.
 */
export function calibrationEnv(
  env: NodeJS.ProcessEnv,
  slotCpus: string | null | undefined,
): NodeJS.ProcessEnv {
  if (env.GOMAXPROCS !== undefined || slotCpus === null || slotCpus === undefined) return env;
  return { ...env, GOMAXPROCS: String(Math.max(1, parseCpuList(slotCpus).length)) };
}

/** Go's b.N ramp-up per benchmark when calibrating: enough for ns/op to size the work. */
const CALIBRATION_SECONDS = 0.02;

/**
 * The `go` format's suite: each version's test binary built once (`go test -c`), every
 * selected benchmark calibrated once on the baseline (ns/op at the finest names the tool
 * prints, or summed per listed benchmark), each run with a fixed count (`-benchtime Nx`, the
 * same work in every repetition, so repetitions pair by position) and, with
 * `calibration: tool`, Go's own b.N.
 */
export const goSuite: SuitePreparer = {
  async prepare(options) {
    const { scenario, versions, signal } = options;
    const spec = scenario.suite!;
    const go = parseGoTest(scenario.workload.command);
    const started = process.hrtime.bigint();
    const cleanup: (() => Promise<void>)[] = [];
    const binaries: GoBinary[] = [];
    for (const [i] of versions.entries()) {
      const outDir = path.join(options.workDir, `go-${i}`);
      cleanup.push(() => rm(outDir, { recursive: true, force: true }));
      binaries.push(await buildGoBinary(go, outDir, versionContext(options, i)));
    }
    // copies of each binary, one drawn for each process (PreparedSuite.programs)
    const copies = await Promise.all(binaries.map((b) => copyBinary(b.binary, GO_BINARY_COPIES)));
    const buildSeconds = secondsSince(started);
    const calibrating = process.hrtime.bigint();
    const baseIndex = Math.max(
      0,
      versions.findIndex((v) => v.name === options.baseline),
    );
    const context = {
      version: options.baseline,
      cwd: binaries[baseIndex]!.cwd,
      env: calibrationEnv(options.envOf(baseIndex), options.isolation.report.slots[0]),
      signal,
    };
    const calibrated = await calibrateGo(binaries[baseIndex]!, go, CALIBRATION_SECONDS, context);
    const startupSeconds = await goStartupSeconds(binaries[baseIndex]!, go, context);
    const patterns = scenario.workload.benchmarks;
    const chosen = calibrated.filter(
      (c) => patterns === undefined || patterns.some((p) => matchesBenchmark(p, c.name)),
    );
    const group = spec.granularity === 'group';
    const grouped =
      spec.granularity !== 'listed'
        ? chosen
        : [...new Set(chosen.map((c) => c.name.split('/')[0]!))].map((name) => ({
            name,
            nsPerOp: chosen
              .filter((c) => c.name.split('/')[0] === name)
              .reduce((a, c) => a + c.nsPerOp, 0),
          }));
    if (grouped.length === 0) {
      throw new RunError(
        `suite: the calibration run of ${options.baseline} printed no benchmark matching workload.benchmarks`,
      );
    }
    const fixed = spec.calibration === 'fixed';
    if (group && !fixed) {
      throw new RunError(
        'suite.granularity: group needs calibration: fixed for go (one -benchtime Nx serves the benchmarks a process runs together); with calibration: tool use finest or listed',
      );
    }
    // granularity group: siblings of like cost share a process and its count (goGroupClasses)
    const classes = group ? goGroupClasses(grouped) : grouped.map((c) => [c]);
    const classOf = new Map<string, { total: number | null; size: number; key: number }>();
    for (const [key, members] of classes.entries()) {
      const mean = members.reduce((a, c) => a + c.nsPerOp, 0) / members.length;
      const total = fixed ? fixedIterations(mean, spec.iterationTime) : null;
      for (const c of members) classOf.set(c.name, { total, size: members.length, key });
    }
    const work = (name: string) => {
      const { total } = classOf.get(name)!;
      const parts = total === null ? 1 : goParts(total, spec);
      return { parts, iterations: total === null ? null : partIterations(total, parts) };
    };
    const units = grouped.map((c) => {
      const { parts, iterations } = work(c.name);
      return {
        name: c.name,
        // a process runs `parts` timed parts of its work, or `repetitions` whole repetitions
        // (the schema allows one of them above 1)
        argv: (i: number, repetitions: number) =>
          goUnitArgv(
            binaries[i]!.binary,
            go,
            c.name,
            iterations,
            go.benchtime,
            fixed ? parts * repetitions : null,
          ),
        cwd: binaries.map((b) => b.cwd),
        iterations,
        parts,
        nsPerOp: c.nsPerOp,
        ...(group ? { processShare: 1 / classOf.get(c.name)!.size } : {}),
      };
    });
    return {
      units,
      lists: Object.fromEntries(versions.map((v) => [v.name, units.map((u) => u.name)])),
      missing: [],
      build: { kind: 'go-test-c', seconds: buildSeconds },
      calibrationSeconds: secondsSince(calibrating),
      // a fixed count per repetition is what makes the k-th repetitions comparable; grouped,
      // a process splits its work into parts instead of repeating it
      repeats: fixed && !group,
      startupSeconds,
      cleanup,
      programs: (i) => copies[i]!,
      group: group
        ? (names, i) => {
            const { parts, iterations } = work(names[0]!);
            return goGroupArgv(binaries[i]!.binary, go, names, iterations!, parts);
          }
        : null,
      ...(group
        ? {
            partition: (names: readonly string[]) => {
              const sets = new Map<number, string[]>();
              for (const name of names) {
                const key = classOf.get(name)!.key;
                sets.set(key, [...(sets.get(key) ?? []), name]);
              }
              return [...sets.values()];
            },
          }
        : {}),
    };
  },
};

/**
 * Siblings (the same parent benchmark) whose time per operation lies within this factor of
 * the cheapest of them share a process with `granularity: group`: one `-benchtime Nx` serves
 * them all, so each gets between a quarter and four times the mean's measured time.
 */
export const GROUP_COST_SPREAD = 4;

/**
 * The sets of benchmarks one Go process may run together (`granularity: group`): siblings —
 * the same parent, `BenchmarkParse/canada/…`, or top-level benchmarks without sub-benchmarks —
 * whose ns/op lie within GROUP_COST_SPREAD of the cheapest, in the order of their first
 * member. Siblings only: go test matches `-bench` level by level, so one pattern for
 * `A/x` and `B/y` would run `A/y` and `B/x` too. Pure.
 */
export function goGroupClasses<T extends Calibrated>(units: readonly T[]): T[][] {
  const byParent = new Map<string, T[]>();
  for (const u of units) {
    const parent = goParent(u.name);
    byParent.set(parent, [...(byParent.get(parent) ?? []), u]);
  }
  const classes: T[][] = [];
  for (const siblings of byParent.values()) {
    const sorted = [...siblings].sort((a, b) => a.nsPerOp - b.nsPerOp);
    let current: T[] = [];
    for (const u of sorted) {
      if (
        current.length > 0 &&
        u.nsPerOp > GROUP_COST_SPREAD * Math.max(current[0]!.nsPerOp, 1e-3)
      ) {
        classes.push(current);
        current = [];
      }
      current.push(u);
    }
    if (current.length > 0) classes.push(current);
  }
  const position = new Map(units.map((u, i) => [u.name, i]));
  const first = (c: T[]) => Math.min(...c.map((u) => position.get(u.name)!));
  return classes
    .map((c) => [...c].sort((a, b) => position.get(a.name)! - position.get(b.name)!))
    .sort((a, b) => first(a) - first(b));
}

/** `BenchmarkParse/canada` of `BenchmarkParse/canada/fastjson`; '' for a top-level name. */
function goParent(name: string): string {
  const at = name.lastIndexOf('/');
  return at < 0 ? '' : name.slice(0, at);
}

/**
 * The argv that runs sibling benchmarks (goGroupClasses) together in one process:
 * `-test.bench=^Parent$/^(a|b)$`, `iterations` each per part, `parts` parts
 * (`-test.count`, replacing the command's). Go runs each benchmark's parts in a row, then the
 * next benchmark's.
 */
export function goGroupArgv(
  binary: string,
  command: GoTestCommand,
  names: readonly string[],
  iterations: number,
  parts: number,
): string[] {
  const parent = goParent(names[0]!);
  if (names.some((n) => goParent(n) !== parent)) {
    throw new Error(`goGroupArgv: ${names.join(', ')} are not siblings`);
  }
  const leaves = names.map((n) => escapeRegExp(n.slice(parent === '' ? 0 : parent.length + 1)));
  const levels = parent === '' ? [] : parent.split('/').map((p) => `^${escapeRegExp(p)}$`);
  const last = leaves.length === 1 ? `^${leaves[0]}$` : `^(${leaves.join('|')})$`;
  return [
    binary,
    '-test.run=^$',
    `-test.bench=${[...levels, last].join('/')}`,
    `-test.benchtime=${iterations}x`,
    ...command.test.filter((f) => !f.startsWith('-test.count')),
    `-test.count=${parts}`,
  ];
}

/**
 * Timed parts a process splits a benchmark's `total` iterations into: `suite.parts` as given
 * (never so many that a part has fewer than MIN_GO_ITERATIONS), or with `auto` as many as
 * give every part MIN_OPS_PER_PART operations, at most MAX_PARTS, and 1 where the scenario
 * repeats whole processes (`repetitions` above 1). Each part is a `-test.count` of its own,
 * and go test runs each one's b.N = 1 first: at 20 operations a part that costs a twentieth.
 */
export function goParts(total: number, spec: Pick<SuiteSpec, 'parts' | 'repetitions'>): number {
  if (spec.parts === 'auto') {
    if (spec.repetitions !== 1) return 1;
    return Math.max(1, Math.min(MAX_PARTS, Math.floor(total / MIN_OPS_PER_PART)));
  }
  return Math.max(1, Math.min(spec.parts, Math.floor(total / MIN_GO_ITERATIONS)));
}

/** Iterations of each of `parts` parts of `total`: an even share, at least MIN_GO_ITERATIONS. */
export function partIterations(total: number, parts: number): number {
  return Math.max(MIN_GO_ITERATIONS, Math.round(total / parts));
}

/** Iterations that make one run of a benchmark take about `seconds`; at least `MIN_GO_ITERATIONS`. */
export function fixedIterations(nsPerOp: number, seconds: number): number {
  return Math.max(MIN_GO_ITERATIONS, Math.round((seconds * 1e9) / Math.max(nsPerOp, 1e-3)));
}

/**
 * The fewest iterations a Go process runs: with `-benchtime 1x` go test reports its first,
 * cold run (b.N = 1: the benchmark's data loaded, its buffers grown, inside the time); from
 * 2x it runs that one first and reports the next. On fastjson's `Parse/canada/fastjson-get`
 * the cold run took 48–76 ms against a warm 3.5 ms, and hid a +20% slowdown (+1.7% measured).
 */
export const MIN_GO_ITERATIONS = 2;
