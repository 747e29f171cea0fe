import type { ComparisonReport } from '../contracts/comparison.js';
import type { ProfileScope } from '../contracts/profile.js';
import type { SamplesFile } from '../contracts/samples.js';
import { getFormat } from '../formats/registry.js';
import { escapeRegExp } from '../formats/collector.js';
import { benchmarkArgv } from '../scenario/benchmark-command.js';
import type { ProfilePolicy } from '../scenario/profile-schema.js';
import type { Scenario } from '../scenario/schema.js';
import { isGoTest, isTestBinary } from './pprof.js';

/** One benchmark of one version to profile against the baseline, and how to run it. */
export interface ProfileTarget {
  /** The benchmark as comparison.json names it (a metric of it, for go's `… - B/op`). */
  benchmark: string;
  baseline: string;
  version: string;
  /** The same key for results that one profile serves (go's metrics of one benchmark). */
  key: string;
  /**
   * The user's command narrowed to this benchmark where the program can pick one
   * (`workload.benchmarkCommand`, go, a format's filter); else the whole command.
   */
  argv: string[];
  /** The work one run does, in `ProfileSide.workUnit`s. */
  work: number;
  /** Whether a run does only this benchmark or the whole command (contracts/profile.ts). */
  scope: ProfileScope;
}

/** A go run of the profile: long enough for ~500 ms of samples at the baseline's speed. */
const GO_RUN_NS = 5e8;

/**
 * What to profile after the verdict: the results the policy names (`changed`: those called
 * `regression` or `improvement`; `always`: every result with values), one target per
 * primary result (a derived row stands for the benchmark it is derived from), each with the
 * command that does the same work on both sides.
 */
export function profileTargets(
  policy: ProfilePolicy,
  report: ComparisonReport,
  samples: SamplesFile,
  scenario: Scenario,
): ProfileTarget[] {
  if (policy === 'never') return [];
  const called = report.results.filter((r) =>
    policy === 'always'
      ? r.error === null && r.version !== r.baseline
      : r.comparison?.verdict === 'regression' || r.comparison?.verdict === 'improvement',
  );
  // One target per primary result: a derived row (Google Benchmark's items_per_second, go's
  // MB/s: `derivedFrom`) is profiled as the benchmark it is derived from, once. Results that
  // one profile serves (go's metrics of a benchmark, wall and cpu time of a command) share
  // its key, and profileResults runs it once.
  const seen = new Set<string>();
  const targets: ProfileTarget[] = [];
  for (const result of called) {
    const benchmark = result.derivedFrom ?? result.benchmark;
    const id = `${benchmark}\u0000${result.version}`;
    if (seen.has(id)) continue;
    seen.add(id);
    targets.push({
      benchmark,
      baseline: result.baseline,
      version: result.version,
      ...howToRun(benchmark, result.baseline, samples, scenario),
    });
  }
  return targets;
}

function howToRun(
  benchmark: string,
  baseline: string,
  samples: SamplesFile,
  scenario: Scenario,
): { key: string; argv: string[]; work: number; scope: ProfileScope } {
  const { command, format, benchmarkCommand } = scenario.workload;
  if (format === 'go' || isGoTest(command) || isTestBinary(command)) {
    const name = benchmark.replace(/ - \S+$/, '');
    const n = goIterations(name, baseline, samples);
    const work = n > 1 ? n + 1 : 1;
    return { key: name, argv: goArgv(command, name, n), work, scope: 'benchmark' };
  }
  // One benchmark per process wherever the program can pick one, so that the time ratio of
  // the differential is the benchmark's own measured one (docs/explain.md): the user's own
  // one-benchmark command first, then the format's filter (measured one at a time or not).
  if (benchmarkCommand !== undefined) {
    return {
      key: benchmark,
      argv: benchmarkArgv(benchmarkCommand, benchmark),
      work: 1,
      scope: 'benchmark',
    };
  }
  const support =
    format === undefined || format === 'auto' ? undefined : getFormat(format).perBenchmark;
  if (support !== undefined) {
    const names = benchmarkNames(baseline, samples, benchmark);
    // A metric of a benchmark (Google Benchmark's `BM_Parse - bytes`) is filtered as the
    // benchmark, whose profile serves both.
    const primary = benchmark.slice(0, Math.max(0, benchmark.lastIndexOf(' - ')));
    const name = names.includes(primary) ? primary : benchmark;
    const argv = support.filterArgv(command, name, names);
    return { key: name, argv, work: 1, scope: 'benchmark' };
  }
  // The command runs every benchmark it reports: one profile serves them all. Without a
  // format the command is the benchmark, timed whole.
  const scope = format === undefined ? 'benchmark' : 'command';
  return { key: '(command)', argv: [...command], work: 1, scope };
}

/**
 * Every benchmark the command runs, for filters that match substrings (pytest's `-k`): the
 * per-benchmark run's list where there is one, else the primary results the baseline
 * reported (derived rows, `… - gc.alloc.rate`, are not benchmarks of their own).
 */
function benchmarkNames(baseline: string, samples: SamplesFile, benchmark: string): string[] {
  const listed = samples.perBenchmark?.lists[samples.perBenchmark.listedBy];
  if (listed !== undefined) return listed;
  const index = samples.versions.findIndex((v) => v.name === baseline);
  const names = samples.trials
    .filter((t) => t.version === index)
    .flatMap((t) => t.metrics.filter((m) => m.derivedFrom === undefined).map((m) => m.name));
  return [...new Set([benchmark, ...names])];
}

/**
 * `go test` (or a test binary) running only `name`, exactly `n` times per run (`-benchtime
 * Nx`, once: later flags win), so base and head do the same work. Go runs b.N = 1 first
 * whenever N > 1, hence a run's work of N + 1 ops.
 */
export function goArgv(command: readonly string[], name: string, n: number): string[] {
  const p = isTestBinary(command) ? '-test.' : '-';
  const pattern = name
    .split('/')
    .map((part) => `^${escapeRegExp(part)}$`)
    .join('/');
  const argv = [...command];
  const at = argv.indexOf('-args');
  argv.splice(
    at < 0 ? argv.length : at,
    0,
    `${p}run=^$`,
    `${p}bench=${pattern}`,
    `${p}benchtime=${n}x`,
    `${p}count=1`,
  );
  return argv;
}

/** b.N for a run of ~GO_RUN_NS at the baseline's median ns/op (1 when unknown). */
function goIterations(name: string, baseline: string, samples: SamplesFile): number {
  const index = samples.versions.findIndex((v) => v.name === baseline);
  const values = samples.trials
    .filter((t) => t.version === index && !t.warmup)
    .flatMap((t) => t.metrics.filter((m) => m.name === name && m.unit === 'ns/op'))
    .flatMap((m) => m.values)
    .sort((a, b) => a - b);
  const median = values[Math.floor(values.length / 2)];
  if (median === undefined || !(median > 0)) return 1;
  return Math.min(1e9, Math.max(1, Math.round(GO_RUN_NS / median)));
}
