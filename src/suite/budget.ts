/**
 * The budget a suite (docs/suites.md) of N benchmarks needs: enough for every benchmark to get
 * its screening (the first look, 20 pairs) and for most to settle, with time left for the ones
 * in doubt. Pure: a cost model per format, no I/O.
 */

import { FIRST_LOOK_PAIRS } from './schema.js';

/** What one pair of one benchmark and the suite's fixed start cost, in seconds of a run. */
interface Cost {
  /** Machine seconds a benchmark pair costs in a whole run (its share of starts included). */
  secondsPerPair: number;
  /** The same when several benchmarks run in one process (`granularity: group`). */
  groupedSecondsPerPair?: number;
  overhead: number;
}

/** The pairs of a screening look (the first look's default): a budget is sized to give them. */
export const SCREENING_PAIRS = FIRST_LOOK_PAIRS;

/**
 * Per-format costs of a pair, measured on this project's 2-vCPU VM in whole `duetkit run`s
 * (BENCHMARKS.md, "Suites" and "Large suites"; benchmarks/results/suites.json: seconds of the
 * run ÷ the benchmark pairs it measured):
 * - go: valyala/fastjson, 100 benchmarks, 2026-11-26/27: 0.10–0.14 s in RMIT, 0.08–0.10 in
 *   a duet (xxhash's 20 short benchmarks: 0.05). At 300 s every one got its 20 pairs (median),
 *   and 78 of 100 A/A benchmarks were `unchanged` at ±5%; at 120 s, 6–10 pairs and 12–35.
 * - criterion: base64, one process a benchmark: 0.22–0.33 s; itertools' 131 benchmarks
 *   several to a process (`granularity: group`, which `duetkit init` writes from 50): 0.13–0.16.
 * - pytest: cattrs, one interpreter a stage (`group`): 0.11–0.17 s.
 * - cargo (libtest), Google Benchmark, JMH: not measured at a suite's size here. cargo is
 *   taken as criterion's one process a benchmark; Google Benchmark as Go's short benchmarks
 *   (a compiled binary that starts in milliseconds); JMH at 0.4 s, its forked JVMs' start.
 * `overhead`: building each version once (`go test -c`, `cargo bench --no-run`), calibrating
 * or listing, and the analysis.
 */
const COSTS: Readonly<Record<string, Cost>> = {
  go: { secondsPerPair: 0.12, overhead: 15 },
  criterion: { secondsPerPair: 0.28, groupedSecondsPerPair: 0.15, overhead: 60 },
  cargo: { secondsPerPair: 0.28, overhead: 60 },
  pytest: { secondsPerPair: 0.15, overhead: 10 },
  googlecpp: { secondsPerPair: 0.05, overhead: 10 },
  jmh: { secondsPerPair: 0.4, overhead: 20 },
};
const OTHER: Cost = { secondsPerPair: 0.15, overhead: 10 };
const MINIMUM_SECONDS = 120;
/** The benchmark counts of the docs' table. */
export const TABLE_SIZES = [20, 50, 100, 200, 400] as const;

export interface BudgetRequest {
  /** A format of src/formats (`go`, `criterion`, `pytest`...); unknown ones get `OTHER`. */
  format: string;
  /** Benchmarks in the suite (an estimate is fine): a whole number ≥ 0. */
  benchmarks: number;
  /** vCPUs of the runner: a whole number ≥ 1. Default 2 (GitHub's `ubuntu-latest`). */
  vcpus?: number;
  /** Several benchmarks to a process (`suite.granularity: group`). Default false. */
  grouped?: boolean;
}

export interface RecommendedBudget {
  /** The budget: whole minutes, at least 2, in seconds. */
  seconds: number;
  perBenchmarkSeconds: number;
  overheadSeconds: number;
  /** One sentence on what the budget buys, for comments and docs. */
  explanation: string;
}

/**
 * overhead + N × per-benchmark, rounded up to whole minutes, at least 2 minutes. A runner with
 * 4 or more vCPUs costs the same: a duet uses one CPU per side plus one for the harness, and
 * runs one duet at a time, so more CPUs do not make a pair faster.
 */
export function recommendedBudget(request: BudgetRequest): RecommendedBudget {
  const { format, benchmarks } = request;
  const vcpus = request.vcpus ?? 2;
  if (!Number.isInteger(benchmarks) || benchmarks < 0) {
    throw new RangeError(`benchmarks: got ${benchmarks}; expected a whole number ≥ 0`);
  }
  if (!Number.isInteger(vcpus) || vcpus < 1) {
    throw new RangeError(`vcpus: got ${vcpus}; expected a whole number ≥ 1`);
  }
  const cost = COSTS[format] ?? OTHER;
  const perPair =
    request.grouped === true
      ? (cost.groupedSecondsPerPair ?? cost.secondsPerPair)
      : cost.secondsPerPair;
  // rounded to a tenth of a second: 20 × 0.12 is 2.4, not 2.4000000000000004
  const perBenchmark = Math.round(SCREENING_PAIRS * perPair * 10) / 10;
  const raw = cost.overhead + perBenchmark * benchmarks;
  // the small epsilon keeps 120.00000000000001 (float products) at 2 minutes
  const seconds = Math.max(MINIMUM_SECONDS, Math.ceil(raw / 60 - 1e-9) * 60);
  const runner =
    vcpus >= 4
      ? `a ${vcpus}-vCPU runner costs what a 2-vCPU one does (a duet uses one CPU per side and one for the harness)`
      : `on a ${vcpus}-vCPU runner`;
  return {
    seconds,
    perBenchmarkSeconds: perBenchmark,
    overheadSeconds: cost.overhead,
    explanation:
      `${formatMinutes(seconds)} gives each of ${benchmarks} ${format} benchmark${benchmarks === 1 ? '' : 's'} ` +
      `its screening (~${SCREENING_PAIRS} pairs) and leaves time for the ones in doubt ` +
      `(~${perBenchmark} s per benchmark + ${cost.overhead} s to build and calibrate; ${runner})`,
  };
}

export interface BudgetRow {
  benchmarks: number;
  /** The budget on a 2-vCPU runner, in seconds. */
  vcpus2: number;
  /** On a 4-vCPU runner (the same: see recommendedBudget). */
  vcpus4: number;
}

/**
 * The recommended budgets of `format` for 20, 50, 100, 200 and 400 benchmarks (docs/init.md);
 * grouped (`granularity: group`) from `groupFrom` benchmarks on, as `duetkit init` writes it.
 */
export function budgetTable(format: string, groupFrom = Infinity): BudgetRow[] {
  return TABLE_SIZES.map((benchmarks) => {
    const grouped = benchmarks >= groupFrom;
    return {
      benchmarks,
      vcpus2: recommendedBudget({ format, benchmarks, vcpus: 2, grouped }).seconds,
      vcpus4: recommendedBudget({ format, benchmarks, vcpus: 4, grouped }).seconds,
    };
  });
}

/** `3m`: a whole number of minutes as a scenario writes a duration. */
export function formatMinutes(seconds: number): string {
  return `${Math.ceil(seconds / 60)}m`;
}
