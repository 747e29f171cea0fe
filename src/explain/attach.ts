import type { BenchmarkResult, ComparisonReport } from '../contracts/comparison.js';
import type { Explain } from '../contracts/explain.js';
import type { ProfilePair, ProfilesFile } from '../contracts/profile.js';
import { differential, type DifferentialOptions } from './differential.js';
import { explainFiles } from './paths.js';

/** Options of `attachExplanations`: the differential's, except what the report decides. */
export type AttachOptions = Omit<DifferentialOptions, 'timeRatio' | 'familyLevel' | 'seed'>;

/** At most this many rows of a differential are kept in comparison.json. */
export const MAX_FUNCTIONS = 200;

/**
 * The report with an `explain` block on every result a profile belongs to (issue 23), and on
 * every called result the policy wanted profiled that has none (with the warning why). A pair
 * belongs to the results of its benchmark (`checksum`, or one of its metrics `checksum - wall`)
 * and head version; exact results (allocs/op) get none. The intervals hold together at the
 * report's level and the bootstrap uses its seed; the time ratio of the contributions is the
 * measured one when the result is a time. Pure: the artifacts are `writeExplainArtifacts`'s.
 */
export function attachExplanations(
  report: ComparisonReport,
  profiles: ProfilesFile,
  options: AttachOptions = {},
): ComparisonReport {
  const results = report.results.map((result): BenchmarkResult => {
    if (result.exact !== undefined) return result;
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
  const d = differential(pair.base, pair.head, {
    ...options,
    familyLevel: report.settings.level,
    seed: report.settings.seed,
    ...measuredRatio(result),
  });
  const files = explainFiles(pair.benchmark, pair.head.version);
  return {
    profiler: pair.head.profiler,
    samples: d.samples,
    work: { ...d.work, unit: pair.head.workUnit },
    seconds: pair.seconds,
    timeRatio: d.timeRatio,
    timeRatioSource: d.timeRatioSource,
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

/** Head's time over base's from the measured comparison, when the result is a time. */
function measuredRatio(r: BenchmarkResult): { timeRatio?: number } {
  const c = r.comparison;
  if (c === null || !TIME_UNIT.test(r.unit) || !(c.change > -1)) return {};
  return { timeRatio: 1 + c.change };
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
