/**
 * Entries of `workload.benchmarks`: a benchmark's exact name as the tool lists it, or a
 * JavaScript regular expression between slashes (`/^BenchmarkJoin/`), matched anywhere in
 * the name unless anchored.
 */

function asRegExp(pattern: string): RegExp | null {
  const m = /^\/(.*)\/$/s.exec(pattern);
  return m === null ? null : new RegExp(m[1]!);
}

/** Why the entry is unusable (an invalid regular expression), or null. */
export function benchmarkPatternProblem(pattern: string): string | null {
  try {
    asRegExp(pattern);
    return null;
  } catch (error) {
    return `a benchmark name or a valid /regular expression/ (${(error as Error).message})`;
  }
}

/** Whether a listed benchmark name is selected by the entry. */
export function matchesBenchmark(pattern: string, name: string): boolean {
  const re = asRegExp(pattern);
  return re === null ? pattern === name : re.test(name);
}
