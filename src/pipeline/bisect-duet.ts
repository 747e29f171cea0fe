import { analyzeSamples } from '../analyze/analyze.js';
import { runScenario, type RunOptions } from './local-run.js';
import type { Scenario } from '../scenario/schema.js';
import { matchesBenchmark } from '../scenario/benchmark-pattern.js';
import type { Checkout } from './bisect-checkouts.js';
import { BisectError, type DuetOutcome, type RunDuet } from '../bisect/search.js';

export interface DuetPortOptions {
  /** The workload and its settings; its versions' names, refs and setups are not used. */
  scenario: Scenario;
  /** Which benchmark decides (exact name or /regex/); null: the only one there is. */
  benchmark: string | null;
  checkout: (commit: string) => Promise<Checkout>;
  run: Pick<RunOptions, 'signal' | 'env' | 'onNotice'> & { seed?: number };
  /** Told about each duet as it starts. */
  onDuet?: (base: string, head: string, effort: number) => void;
}

/**
 * The search's duets, run by the ordinary pipeline (`runScenario`, then `analyzeSamples`):
 * the scenario with two versions that are the commits' built checkouts (paths, no setup:
 * built once by `checkout`), `effort` times its iterations. A commit that does not build, or
 * whose benchmark fails, comes back `unbuildable` (skipped like `git bisect skip`).
 */
export function createDuetPort(options: DuetPortOptions): RunDuet {
  const env = options.scenario.versions[0]!.env;
  return async (base, head, effort) => {
    const sides = [
      [base, await options.checkout(base)],
      [head, await options.checkout(head)],
    ] as const;
    for (const [commit, c] of sides) {
      if (!c.ok) return { kind: 'unbuildable', commit, reason: c.reason };
    }
    options.onDuet?.(base, head, effort);
    const scenario: Scenario = {
      ...options.scenario,
      name: `bisect ${head.slice(0, 10)} vs ${base.slice(0, 10)}`,
      versions: sides.map(([, c], i) => ({
        name: i === 0 ? 'base' : 'head',
        path: (c as { dir: string }).dir,
        env,
      })),
      iterations: options.scenario.iterations * effort,
      analysis: { ...options.scenario.analysis, baseline: 'base' },
    };
    const started = performance.now();
    const samples = await runScenario(
      { scenario, file: null, baseDir: (sides[0][1] as { dir: string }).dir },
      options.run,
    );
    const seconds = (performance.now() - started) / 1000;
    if (samples.stopReason === 'failed' || samples.stopReason === 'interrupted') {
      if (options.run.signal.aborted) throw new BisectError(samples.error ?? 'interrupted');
      const side = /\(version (base|head)\b/.exec(samples.error ?? '')?.[1] ?? 'head';
      return {
        kind: 'unbuildable',
        commit: side === 'base' ? base : head,
        reason: `the benchmark failed: ${(samples.error ?? '').split('\n')[0]}`,
      };
    }
    const report = analyzeSamples(samples);
    const results = report.results.filter(
      (r) => options.benchmark === null || matchesBenchmark(options.benchmark, r.benchmark),
    );
    const names = report.results.map((r) => r.benchmark).join(', ');
    if (results.length !== 1) {
      throw new BisectError(
        results.length === 0
          ? `--benchmark ${JSON.stringify(options.benchmark)} matches none of the benchmarks: ${names}`
          : `bisect follows one benchmark; ${results.length} were measured (${results.map((r) => r.benchmark).join(', ')}): choose one with --benchmark NAME or /regex/`,
      );
    }
    const r = results[0]!;
    if (r.comparison === null) {
      return {
        kind: 'unbuildable',
        commit: head,
        reason: `${r.benchmark} could not be compared: ${r.error ?? r.unmeasured ?? r.notComparable?.reason ?? 'no values'}`,
      };
    }
    const c = r.comparison;
    const outcome: DuetOutcome = {
      kind: 'measured',
      result: {
        change: c.change,
        lower: c.ci.lower,
        upper: c.ci.upper,
        level: c.ci.level,
        pairs: Math.min(c.n.base, c.n.head),
        seconds,
      },
    };
    return outcome;
  };
}
