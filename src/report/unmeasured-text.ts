import type { BenchmarkResult } from '../contracts/comparison.js';

/**
 * The benchmarks the budget did not measure, each once (a benchmark is unmeasured against
 * every version alike), in report order.
 */
export function unmeasuredNames(results: readonly BenchmarkResult[]): string[] {
  return [...new Set(results.filter((r) => r.unmeasured != null).map((r) => r.benchmark))];
}

/** What would reach the benchmarks a budget left unmeasured. */
export const UNMEASURED_HINT =
  'a longer budget or fewer benchmarks (workload.benchmarks) would reach them';
