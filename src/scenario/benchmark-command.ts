import { argv } from './fields.js';

/** What stands for the benchmark's name in `workload.benchmarkCommand`. */
export const BENCHMARK_PLACEHOLDER = '{benchmark}';

/**
 * `workload.benchmarkCommand`: how a program that reports several benchmarks runs one of them
 * alone, `{benchmark}` where its name goes (`node bench.js {benchmark}`). Parsed as `command`
 * is (a list, or a string split as a shell would, never run by one); at least one of its
 * words holds the placeholder. The profiles run it (docs/explain.md, "One benchmark per
 * process"), so that each profiled process does only the benchmark it explains.
 */
export const benchmarkCommand = argv.refine(
  (words) => words.some((word) => word.includes(BENCHMARK_PLACEHOLDER)),
  {
    error: `a command with ${BENCHMARK_PLACEHOLDER} where the benchmark's name goes, such as "node bench.js ${BENCHMARK_PLACEHOLDER}"`,
  },
);

/**
 * The command of one benchmark: every `{benchmark}` of every word replaced by the name as the
 * results name it, verbatim (no quoting, no escaping: a word stays one argument).
 */
export function benchmarkArgv(template: readonly string[], name: string): string[] {
  return template.map((word) => word.replaceAll(BENCHMARK_PLACEHOLDER, name));
}
