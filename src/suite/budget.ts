/**
 * The budget a suite (docs/suites.md) of N benchmarks needs: enough for every benchmark to get
 * its screening (the first look, 20 pairs) and for most to settle, with time left for the ones
 * in doubt. Pure: a cost model per format, no I/O.
 */

/** What one benchmark and the suite's fixed start cost, in seconds of a run. */
interface Cost {
  perBenchmark: number;
  overhead: number;
}

/**
 * Per-format costs on a 2-vCPU GitHub runner. PLACEHOLDERS, to be re-measured: they are
 * issue 21's first estimates, scaled from the suite runs of BENCHMARKS.md ("Suites": Go
 * xxhash, Rust base64/criterion, Python cattrs/pytest-benchmark, 90–120 s budgets on this
 * project's 2-CPU VM) and the e2e runs of tests/init (Google Benchmark, JMH). `perBenchmark`:
 * screening plus its share of the later looks; `overhead`: building each version once
 * (`go test -c`, `cargo bench --no-run`), calibrating or listing, and the analysis.
 */
const COSTS: Readonly<Record<string, Cost>> = {
  go: { perBenchmark: 0.9, overhead: 15 },
  criterion: { perBenchmark: 2.5, overhead: 60 },
  cargo: { perBenchmark: 2.5, overhead: 60 },
  pytest: { perBenchmark: 1.2, overhead: 10 },
  googlecpp: { perBenchmark: 0.8, overhead: 10 },
  jmh: { perBenchmark: 8, overhead: 20 },
};
const OTHER: Cost = { perBenchmark: 1.5, overhead: 10 };
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
  const raw = cost.overhead + cost.perBenchmark * benchmarks;
  // the small epsilon keeps 120.00000000000001 (float products) at 2 minutes
  const seconds = Math.max(MINIMUM_SECONDS, Math.ceil(raw / 60 - 1e-9) * 60);
  const runner =
    vcpus >= 4
      ? `a ${vcpus}-vCPU runner costs what a 2-vCPU one does (a duet uses one CPU per side and one for the harness)`
      : `on a ${vcpus}-vCPU runner`;
  return {
    seconds,
    perBenchmarkSeconds: cost.perBenchmark,
    overheadSeconds: cost.overhead,
    explanation:
      `${formatMinutes(seconds)} gives each of ${benchmarks} ${format} benchmark${benchmarks === 1 ? '' : 's'} ` +
      `its screening (~20 pairs) and leaves time for the ones in doubt ` +
      `(~${cost.perBenchmark} s per benchmark + ${cost.overhead} s to build and calibrate; ${runner})`,
  };
}

export interface BudgetRow {
  benchmarks: number;
  /** The budget on a 2-vCPU runner, in seconds. */
  vcpus2: number;
  /** On a 4-vCPU runner (the same: see recommendedBudget). */
  vcpus4: number;
}

/** The recommended budgets of `format` for 20, 50, 100, 200 and 400 benchmarks (docs/init.md). */
export function budgetTable(format: string): BudgetRow[] {
  return TABLE_SIZES.map((benchmarks) => ({
    benchmarks,
    vcpus2: recommendedBudget({ format, benchmarks, vcpus: 2 }).seconds,
    vcpus4: recommendedBudget({ format, benchmarks, vcpus: 4 }).seconds,
  }));
}

/** `3m`: a whole number of minutes as a scenario writes a duration. */
export function formatMinutes(seconds: number): string {
  return `${Math.ceil(seconds / 60)}m`;
}
