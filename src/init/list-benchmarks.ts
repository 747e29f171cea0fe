import { parseOutput } from '../formats/registry.js';
import { capture } from '../runner/list-benchmarks.js';
import type { ToolPlan } from './types.js';

/** The suite's benchmarks as the tool itself reports them, from one quick run. */
export interface ListedBenchmarks {
  count: number;
  /** How they were counted, for the scenario's comment. */
  how: string;
}

/**
 * Counts a suite's benchmarks by running the plan's `suite.list` command once in `dir` and
 * reading its output with the workload's format; null when the plan has no such command.
 * Throws (with the tool's own words) when the command fails, times out or reports none: the
 * caller keeps the count from the sources then.
 */
export type BenchmarkLister = (plan: ToolPlan, dir: string) => Promise<ListedBenchmarks | null>;

/** Longest a listing run may take before init keeps its estimate from the sources. */
export const LIST_TIMEOUT_MS = 120_000;

export function createBenchmarkLister(timeoutMs = LIST_TIMEOUT_MS): BenchmarkLister {
  return async (plan, dir) => {
    const list = plan.suite?.list;
    const format = plan.workload.format;
    if (list === undefined || format === undefined) return null;
    // the runner's capture, killed (its process group) when the time is up
    const result = await capture(list.argv, {
      version: 'listing',
      cwd: dir,
      env: process.env,
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (result.code !== 0) {
      const why =
        result.spawnError ??
        (result.signal !== null
          ? `no result within ${timeoutMs / 1000} s`
          : result.stderr.trim().split('\n').slice(-3).join(' ') || `exit status ${result.code}`);
      throw new Error(`${list.argv.join(' ')}: ${why}`);
    }
    const parsed = parseOutput(format, result.stdout, { cwd: dir });
    // one benchmark per timing: not its extra metrics ("X - B/op") nor derived ones (MB/s)
    const names = new Set(parsed.map((b) => b.name));
    const count = parsed.filter(
      (b) =>
        b.derivedFrom === undefined &&
        !(b.name.includes(' - ') && names.has(b.name.slice(0, b.name.lastIndexOf(' - ')))),
    ).length;
    if (count === 0) throw new Error(`${list.argv.join(' ')}: reported no benchmark`);
    return { count, how: list.how };
  };
}
