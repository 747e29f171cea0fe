import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { capture, type ListContext } from '../runner/list-benchmarks.js';
import { commandFailure, RunError } from '../process/errors.js';
import { cargoPerBenchmark } from '../formats/cargo-filter.js';
import { escapeRegExp } from '../formats/collector.js';
import { selectBenchmarks } from '../runner/benchmark-selection.js';
import { secondsSince, versionContext, type SuitePreparer } from './preparer.js';

/** `cargo bench [cargo options] [-- harness options]` taken apart. */
export interface CargoBenchCommand {
  /** Options for cargo (`--bench NAME`, `--features X`, `-p crate`...). */
  cargo: string[];
  /** Options for the bench harness (after `--`). */
  harness: string[];
}

export function parseCargoBench(argv: readonly string[]): CargoBenchCommand {
  if (argv[0] !== 'cargo' || argv[1] !== 'bench') {
    throw new RunError(
      `suite.build: a prebuilt Rust benchmark needs the command "cargo bench ...", got ${JSON.stringify(argv.join(' '))}; use build: never for other commands`,
    );
  }
  const split = argv.indexOf('--');
  return {
    cargo: argv.slice(2, split < 0 ? undefined : split),
    harness: split < 0 ? [] : argv.slice(split + 1),
  };
}

/**
 * `cargo bench --no-run --message-format=json` in the version's directory: builds the bench
 * target once and returns its executable (cargo prints it in the compiler-artifact message).
 * One bench target: name it with `--bench NAME` when the package has several.
 */
export async function buildCargoBench(
  command: CargoBenchCommand,
  context: ListContext,
): Promise<string> {
  const argv = ['cargo', 'bench', '--no-run', '--message-format=json', ...command.cargo];
  const result = await capture(argv, context);
  if (context.signal.aborted) throw new RunError('interrupted');
  const failure = { argv, version: context.version, round: null, cwd: context.cwd };
  if (result.code !== 0)
    throw commandFailure(failure, `(build) failed with code ${result.code}`, result.stderr);
  const executables: string[] = [];
  for (const line of result.stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    const message = JSON.parse(line) as {
      reason?: string;
      executable?: string | null;
      target?: { kind?: string[] };
    };
    if (
      message.reason === 'compiler-artifact' &&
      typeof message.executable === 'string' &&
      message.target?.kind?.includes('bench') === true
    ) {
      executables.push(message.executable);
    }
  }
  if (executables.length !== 1) {
    throw commandFailure(
      failure,
      `(build) should build one bench target, built ${executables.length}${executables.length > 1 ? `: ${executables.map((e) => path.basename(e)).join(', ')}; name one with --bench NAME` : ''}`,
      result.stderr,
    );
  }
  return executables[0]!;
}

/** The bench binary's benchmarks (criterion and libtest both print `name: benchmark`). */
export async function listCargoBench(
  executable: string,
  command: CargoBenchCommand,
  context: ListContext,
): Promise<string[]> {
  const argv = [executable, '--bench', ...command.harness, '--list'];
  const result = await capture(argv, context);
  const names = cargoPerBenchmark.parseList(result.stdout);
  if (result.code !== 0 || names.length === 0) {
    throw commandFailure(
      { argv, version: context.version, round: null, cwd: context.cwd },
      `(listing benchmarks) ${result.code !== 0 ? `failed with code ${result.code}` : 'listed none'}`,
      result.stderr || result.stdout,
    );
  }
  return names;
}

/** How one criterion process measures a benchmark: `--quick`, or a fixed list of samples. */
export type CriterionPlan =
  { kind: 'quick' } | { kind: 'tool' } | { kind: 'samples'; samples: number; seconds: number };

/**
 * The argv that runs one benchmark. `quick` (the suite's `calibration: fixed` with one
 * repetition): criterion's `--quick` mode: no warm-up and no long sampling plan, just
 * doubling the iterations from 1 until two runs agree within 5% (at least 100 ms), a small
 * analysis whose bootstrap only feeds criterion's own report, and no plots. `samples`: a
 * short warm-up (which also sizes the iterations) and exactly `samples` samples in about
 * `seconds` — the repetitions a suite pairs by position: sample k of base against sample k of
 * head (criterion's linear sampling gives sample k k·d iterations, d from each side's
 * warm-up; each value is time per iteration). `tool`: criterion's own settings.
 */
export function cargoUnitArgv(
  executable: string,
  command: CargoBenchCommand,
  name: string,
  plan: CriterionPlan | boolean,
  harness: 'criterion' | 'libtest' = 'criterion',
): string[] {
  if (harness === 'libtest') return [executable, '--bench', ...command.harness, '--exact', name];
  const p: CriterionPlan = typeof plan === 'boolean' ? { kind: plan ? 'quick' : 'tool' } : plan;
  const flags =
    p.kind === 'quick'
      ? ['--quick', '--noplot', '--nresamples', '1000']
      : p.kind === 'samples'
        ? [
            '--noplot',
            '--warm-up-time',
            String(CRITERION_WARM_UP_SECONDS),
            '--measurement-time',
            String(+p.seconds.toFixed(3)),
            '--sample-size',
            String(p.samples),
            '--nresamples',
            '1000',
          ]
        : [];
  // criterion 0.4 has no --exact: its filter is a regular expression, anchored here
  return [executable, '--bench', ...command.harness, ...flags, `^${escapeRegExp(name)}$`];
}

/**
 * The argv that runs several criterion benchmarks in one process (`granularity: group`): the
 * binary's start-up is paid once for all of them (itertools' bench target: 0.28 s before the
 * first benchmark, 0.33 s in all for one benchmark alone). Each benchmark takes criterion's
 * shortest sample list (10 samples in about `seconds`, after as short a warm-up); its value in
 * the round is their median (analyze/blocks.ts).
 */
export function cargoGroupArgv(
  executable: string,
  command: CargoBenchCommand,
  names: readonly string[],
  seconds: number,
): string[] {
  const time = String(+seconds.toFixed(3));
  return [
    executable,
    '--bench',
    ...command.harness,
    '--noplot',
    '--warm-up-time',
    time,
    '--measurement-time',
    time,
    '--sample-size',
    String(CRITERION_MIN_SAMPLES),
    '--nresamples',
    '1000',
    `^(${names.map(escapeRegExp).join('|')})$`,
  ];
}

/** Criterion's shortest sample list (`--sample-size` below 10 is refused). */
export const CRITERION_MIN_SAMPLES = 10;
/** Warm-up per process: enough for criterion to size its iterations, little else. */
const CRITERION_WARM_UP_SECONDS = 0.05;

/** A directory of its own per version for criterion's files (target/criterion under it). */
export async function cargoRunDir(workDir: string, version: number): Promise<string> {
  const dir = path.join(workDir, `cargo-run-${version}`);
  await mkdir(dir, { recursive: true });
  return dir;
}

/**
 * The `criterion` and `cargo` formats' suite: each version's bench target built once
 * (`cargo bench --no-run`), its benchmarks listed by the built executable, each run alone
 * (criterion under `calibration: fixed`: a fixed list of `repetitions` samples per process,
 * at least criterion's 10, paired by position; `repetitions: 1`: `--quick`).
 */
export const cargoSuite: SuitePreparer = {
  async prepare(options) {
    const { scenario, versions } = options;
    const format = scenario.workload.format;
    const cargo = parseCargoBench(scenario.workload.command);
    const started = process.hrtime.bigint();
    const executables: string[] = [];
    for (const [i] of versions.entries()) {
      executables.push(await buildCargoBench(cargo, versionContext(options, i)));
    }
    const buildSeconds = secondsSince(started);
    const listing = process.hrtime.bigint();
    const lists = new Map<string, string[]>();
    for (const [i, version] of versions.entries()) {
      lists.set(
        version.name,
        await listCargoBench(executables[i]!, cargo, versionContext(options, i)),
      );
    }
    const selection = selectBenchmarks(lists, options.baseline, scenario.workload.benchmarks);
    // criterion writes its files under <cwd>/target/criterion: one directory per version
    const dirs = await Promise.all(versions.map((_, i) => cargoRunDir(options.workDir, i)));
    const spec = scenario.suite!;
    const fixed = spec.calibration === 'fixed';
    const harness = format === 'cargo' ? 'libtest' : 'criterion';
    // criterion's sample list: the same number of samples on both sides, paired by position
    const repeats = fixed && harness === 'criterion' && spec.repetitions !== 1;
    const plan = (repetitions: number): CriterionPlan =>
      !fixed
        ? { kind: 'tool' }
        : repeats && repetitions > 1
          ? { kind: 'samples', samples: repetitions, seconds: repetitions * spec.iterationTime }
          : { kind: 'quick' };
    const group = spec.granularity === 'group';
    if (group && harness !== 'criterion') {
      throw new RunError(
        `suite.granularity: group needs criterion (one process runs the benchmarks a regular expression selects); the ${format} format's libtest harness runs one at a time`,
      );
    }
    return {
      units: selection.run.map((name) => ({
        name,
        argv: (i: number, repetitions: number) =>
          cargoUnitArgv(executables[i]!, cargo, name, plan(repetitions), harness),
        cwd: dirs,
        iterations: null,
        nsPerOp: null,
      })),
      lists: Object.fromEntries(lists),
      missing: selection.missing,
      build: { kind: 'cargo-bench-no-run', seconds: buildSeconds },
      calibrationSeconds: secondsSince(listing),
      repeats,
      ...(repeats ? { minRepetitions: CRITERION_MIN_SAMPLES } : {}),
      startupSeconds: null,
      cleanup: [],
      group: group
        ? (names, i) => cargoGroupArgv(executables[i]!, cargo, names, spec.iterationTime)
        : null,
      // each benchmark's warm-up in the process (cargoGroupArgv)
      groupWarmsUp: group,
    };
  },
};
