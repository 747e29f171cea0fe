import type { ComparisonReport } from '../contracts/comparison.js';
import type { SamplesFile } from '../contracts/samples.js';
import { getFormat } from '../formats/registry.js';
import { escapeRegExp } from '../formats/collector.js';
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
  /** The user's command narrowed to this benchmark where the format allows. */
  argv: string[];
  /** The work one run does, in `ProfileSide.workUnit`s. */
  work: number;
}

/** A go run of the profile: long enough for ~500 ms of samples at the baseline's speed. */
const GO_RUN_NS = 5e8;

/**
 * What to profile after the verdict: the results the policy names (`changed`: those called
 * `regression` or `improvement`; `always`: every result with values), one target per
 * result, each with the command that does the same work on both sides.
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
  // One target per result: results that one profile serves (go's metrics of a benchmark,
  // wall and cpu time of a command) share its key, and profileResults runs it once.
  return called.map((result) => ({
    benchmark: result.benchmark,
    baseline: result.baseline,
    version: result.version,
    ...howToRun(result.benchmark, result.baseline, samples, scenario),
  }));
}

function howToRun(
  benchmark: string,
  baseline: string,
  samples: SamplesFile,
  scenario: Scenario,
): { key: string; argv: string[]; work: number } {
  const { command, format, perBenchmark } = scenario.workload;
  if (format === 'go' || isGoTest(command) || isTestBinary(command)) {
    const name = benchmark.replace(/ - \S+$/, '');
    const n = goIterations(name, baseline, samples);
    return { key: name, argv: goArgv(command, name, n), work: n > 1 ? n + 1 : 1 };
  }
  const support =
    format === undefined || format === 'auto' ? undefined : getFormat(format).perBenchmark;
  if (perBenchmark && support !== undefined) {
    const all = samples.perBenchmark?.lists[samples.perBenchmark.listedBy] ?? [benchmark];
    return { key: benchmark, argv: support.filterArgv(command, benchmark, all), work: 1 };
  }
  // The command runs every benchmark it reports: one profile serves them all.
  return { key: '(command)', argv: [...command], work: 1 };
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
