import { matchesBenchmark } from '../scenario/benchmark-pattern.js';
import { RunError } from '../process/errors.js';
import type { PerBenchmarkRecord } from '../contracts/samples.js';

export interface Selection {
  /** Benchmarks every version lists, in the baseline's order: these run. */
  run: string[];
  /** Selected benchmarks some version lacks: never run, reported as errors. */
  missing: PerBenchmarkRecord['missing'];
}

/**
 * Which benchmarks a per-benchmark run measures. The baseline's list decides the order; an
 * entry of `patterns` (names or `/regex/`, default all) that matches nothing any version
 * lists is a mistake in the scenario and fails. A selected benchmark that some version does
 * not list (added or removed by the change) cannot be compared: it is returned in `missing`,
 * with the versions lacking it, so the report shows it as an error. Pure.
 */
export function selectBenchmarks(
  lists: ReadonlyMap<string, readonly string[]>,
  baseline: string,
  patterns: readonly string[] | undefined,
): Selection {
  const selected = (name: string): boolean =>
    patterns === undefined || patterns.some((p) => matchesBenchmark(p, name));
  const everyName = [...new Set([...(lists.get(baseline) ?? []), ...[...lists.values()].flat()])];
  patterns?.forEach((pattern, i) => {
    if (!everyName.some((name) => matchesBenchmark(pattern, name))) {
      const shown = everyName.slice(0, 20).join(', ') + (everyName.length > 20 ? ', ...' : '');
      throw new RunError(
        `workload.benchmarks[${i}]: ${JSON.stringify(pattern)} matches none of the listed benchmarks; expected an exact name or a /regex/ matching one of: ${shown}`,
      );
    }
  });
  const run: string[] = [];
  const missing: Selection['missing'] = [];
  for (const name of everyName.filter(selected)) {
    const lacking = [...lists].filter(([, names]) => !names.includes(name)).map(([v]) => v);
    if (lacking.length === 0) run.push(name);
    else missing.push({ benchmark: name, versions: lacking });
  }
  return { run, missing };
}
