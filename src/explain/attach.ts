import type { BenchmarkResult, ComparisonReport } from '../contracts/comparison.js';
import type { Explain } from '../contracts/explain.js';
import type { ProfilePair, ProfilesFile } from '../contracts/profile.js';
import type { RatioInterval } from '../stats/contribution.js';
import { differential, type DifferentialOptions } from './differential.js';
import { explainFiles } from './paths.js';

/** Options of `attachExplanations`: the differential's, except what the report decides. */
export type AttachOptions = Omit<
  DifferentialOptions,
  'timeRatio' | 'timeRatioSource' | 'familyLevel' | 'seed'
> & {
  /**
   * Per head version, the whole command's time ratio with its interval
   * (analyze/command-ratio.ts): the time ratio of a profile that ran the whole command.
   */
  commandRatios?: Record<string, RatioInterval>;
};

/** At most this many rows of a differential are kept in comparison.json. */
export const MAX_FUNCTIONS = 200;

/**
 * The report with an `explain` block on every result a profile belongs to (issue 23), and on
 * every called result the policy wanted profiled that has none (with the warning why). A pair
 * belongs to the results of its benchmark (`checksum`, or one of its metrics `checksum - wall`)
 * and head version; exact results (allocs/op) and derived rows get none. The intervals hold together at the
 * report's level and the bootstrap uses its seed. The time ratio of the contributions, with its
 * interval, is the profiled process's: the result's own when the profile ran only its
 * benchmark and the result is a time, the whole command's when it ran the whole command, else
 * the profiles'. Pure: the artifacts are `writeExplainArtifacts`'s.
 */
export function attachExplanations(
  report: ComparisonReport,
  profiles: ProfilesFile,
  options: AttachOptions = {},
): ComparisonReport {
  const results = report.results.map((result): BenchmarkResult => {
    // Exact results (allocs/op) and derived rows (MB/s of ns/op: their profile is their
    // primary's, explained there) get none.
    if (result.exact !== undefined || result.derivedFrom !== undefined) return result;
    const pair = profiles.pairs.find((p) => belongs(p, result, report.results));
    if (pair !== undefined) return { ...result, explain: safely(pair, result, report, options) };
    if (!wanted(profiles, result)) return result;
    return { ...result, explain: missing(profiles, 'no profile was taken of this benchmark') };
  });
  return { ...report, results };
}

/**
 * The result named as the pair's benchmark; only when there is none, each of its metrics
 * (`checksum - wall`, `checksum - rss`).
 */
function belongs(pair: ProfilePair, r: BenchmarkResult, all: readonly BenchmarkResult[]): boolean {
  const version = pair.head?.version ?? 'head';
  if (r.version !== version) return false;
  if (r.benchmark === pair.benchmark) return true;
  const exact = all.some((x) => x.version === version && x.benchmark === pair.benchmark);
  return !exact && r.benchmark.startsWith(`${pair.benchmark} - `);
}

/** Called results under `changed`, every compared one under `always`. */
function wanted(profiles: ProfilesFile, r: BenchmarkResult): boolean {
  const verdict = r.comparison?.verdict;
  if (profiles.policy === 'always') return r.comparison !== null;
  return profiles.policy === 'changed' && (verdict === 'regression' || verdict === 'improvement');
}

/**
 * A profile the differential refuses (a malformed chunk, say) is a warning on the result with
 * the reason, never an exception that would cost the run its verdicts.
 */
function safely(
  pair: ProfilePair,
  result: BenchmarkResult,
  report: ComparisonReport,
  options: AttachOptions,
): Explain {
  try {
    return explainPair(pair, result, report, options);
  } catch (error) {
    const why = `the profiles could not be compared: ${(error as Error).message}`;
    return { ...missing(null, why), seconds: pair.seconds };
  }
}

function explainPair(
  pair: ProfilePair,
  result: BenchmarkResult,
  report: ComparisonReport,
  options: AttachOptions,
): Explain {
  const raw = [...(pair.base?.files ?? []), ...(pair.head?.files ?? [])];
  if (pair.base === null || pair.head === null) {
    const why = pair.warning ?? `the ${pair.base === null ? 'base' : 'head'} side has no profile`;
    return { ...missing(null, why), seconds: pair.seconds, files: { flameGraph: null, raw } };
  }
  const samples = (side: typeof pair.base): number =>
    side.chunks.reduce((n, c) => n + c.stacks.reduce((m, s) => m + s.count, 0), 0);
  if (samples(pair.base) === 0 || samples(pair.head) === 0) {
    const why = `the ${samples(pair.base) === 0 ? 'base' : 'head'} profile has no samples${pair.warning === null ? '' : ` (${pair.warning})`}`;
    return { ...missing(null, why), seconds: pair.seconds, files: { flameGraph: null, raw } };
  }
  const { commandRatios, ...rest } = options;
  const d = differential(pair.base, pair.head, {
    ...rest,
    familyLevel: report.settings.level,
    seed: report.settings.seed,
    ...processRatio(pair, result, commandRatios ?? {}),
  });
  const files = explainFiles(pair.benchmark, pair.head.version);
  return {
    profiler: pair.head.profiler,
    samples: d.samples,
    work: { ...d.work, unit: pair.head.workUnit },
    seconds: pair.seconds,
    timeRatio: d.timeRatio,
    timeRatioSource: d.timeRatioSource,
    timeRatioInterval:
      d.timeRatioInterval === null
        ? null
        : {
            lower: d.timeRatioInterval.lower,
            upper: d.timeRatioInterval.upper,
            level: d.timeRatioInterval.level,
          },
    method: d.method,
    functions: d.functions.slice(0, MAX_FUNCTIONS),
    files: {
      flameGraph: files.flameGraph,
      raw: [...raw, files.speedscope.base, files.speedscope.head],
    },
    warning: pair.warning,
  };
}

const TIME_UNIT = /^(ns|us|µs|ms|s|min)(\/op)?$/;

/**
 * The profiled process's time ratio with its interval: the result's measured one when the
 * profile ran only its benchmark and the result is a time; the whole command's when the
 * profile ran the whole command; otherwise none (the differential takes the profiles').
 */
function processRatio(
  pair: ProfilePair,
  r: BenchmarkResult,
  commandRatios: Record<string, RatioInterval>,
): Pick<DifferentialOptions, 'timeRatio' | 'timeRatioSource'> {
  if ((pair.scope ?? 'benchmark') === 'command') {
    const command = commandRatios[r.version];
    return command === undefined ? {} : { timeRatio: command, timeRatioSource: 'command' };
  }
  const c = r.comparison;
  if (c === null || !TIME_UNIT.test(r.unit) || !(c.change > -1 && c.ci.lower > -1)) return {};
  const estimate = 1 + c.change;
  // A percentile interval may leave its point estimate outside by a hair: keep it inside.
  return {
    timeRatio: {
      estimate,
      lower: Math.min(estimate, 1 + c.ci.lower),
      upper: Math.max(estimate, 1 + c.ci.upper),
      level: c.ci.sequential?.lookLevel ?? c.ci.level,
    },
    timeRatioSource: 'measured',
  };
}

function missing(profiles: ProfilesFile | null, why: string): Explain {
  const run =
    profiles === null || profiles.warnings.length === 0 ? '' : ` (${profiles.warnings.join('; ')})`;
  return {
    profiler: null,
    samples: { base: 0, head: 0 },
    work: null,
    seconds: 0,
    timeRatio: null,
    timeRatioSource: null,
    method: null,
    functions: [],
    files: { flameGraph: null, raw: [] },
    warning: `${why}${run}`,
  };
}
