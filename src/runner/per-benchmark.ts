import { selectBenchmarks } from './benchmark-selection.js';
import { runExperiment, type ExperimentOptions, type ExperimentResult } from './experiment.js';
import { listBenchmarks, perBenchmarkSupport } from './list-benchmarks.js';
import { RunError } from '../process/errors.js';
import type { PerBenchmarkRecord } from '../contracts/samples.js';
import type { StopReason } from '../contracts/stop-reason.js';

export type PerBenchmarkResult = ExperimentResult & { perBenchmark: PerBenchmarkRecord };

/**
 * A suite run one benchmark at a time (`workload.perBenchmark`): every version lists its
 * benchmarks, the baseline's list (filtered by `workload.benchmarks`) decides what runs, and
 * each benchmark gets a whole experiment of its own (warm-up, iterations, the mode's design)
 * with the format's single-benchmark argv, so iteration i of a duet measures the same
 * benchmark on both sides. Rounds are numbered on across benchmarks, so every round in the
 * samples file is one block; each trial records its benchmark. A `budget` is shared out: each
 * benchmark gets an equal part of what is left. Stops at the first failure or interruption.
 */
export async function runPerBenchmark(
  options: ExperimentOptions & { baseline: string },
): Promise<PerBenchmarkResult> {
  const { scenario, versions, signal } = options;
  const support = perBenchmarkSupport(scenario);
  const command = scenario.workload.command;
  const lists = new Map<string, string[]>();
  for (const [i, version] of versions.entries()) {
    if (signal.aborted) throw new RunError('interrupted');
    const env = { ...options.env, ...scenario.workload.env, ...scenario.versions[i]?.env };
    lists.set(
      version.name,
      await listBenchmarks(command, support, {
        version: version.name,
        cwd: version.dir,
        env,
        signal,
      }),
    );
  }
  const selection = selectBenchmarks(lists, options.baseline, scenario.workload.benchmarks);
  const allNames = [...new Set([...lists.values()].flat())];
  const record: PerBenchmarkRecord = {
    listedBy: options.baseline,
    lists: Object.fromEntries(lists),
    runs: [],
    missing: selection.missing,
  };
  const result: PerBenchmarkResult = {
    trials: [],
    order: [],
    stopReason: 'iterations',
    error: null,
    startedAt: new Date(),
    staggerMs: null,
    perBenchmark: record,
  };
  const t0 = process.hrtime.bigint();
  const elapsedMs = (): number => Number(process.hrtime.bigint() - t0) / 1e6;
  let roundOffset = 0;
  for (const [k, benchmark] of selection.run.entries()) {
    const left = selection.run.length - k;
    const budget =
      scenario.budget === undefined
        ? undefined
        : Math.max(0.001, (scenario.budget - elapsedMs() / 1000) / left);
    const argv = support.filterArgv(command, benchmark, allNames);
    const startMs = elapsedMs();
    const done = result.trials.length;
    const part = await runExperiment({
      ...options,
      scenario: { ...scenario, budget, workload: { ...scenario.workload, command: argv } },
      onProgress: (p) =>
        options.onProgress?.({
          done: done + p.done,
          total: done + p.total * left,
          elapsedMs: startMs + p.elapsedMs,
          etaMs: p.etaMs === null ? null : p.etaMs + (left - 1) * (p.elapsedMs + p.etaMs),
        }),
    });
    const shift = (ms: number): number => Math.round((ms + startMs) * 1000) / 1000;
    for (const trial of part.trials) {
      result.trials.push({
        ...trial,
        round: trial.round + roundOffset,
        startMs: shift(trial.startMs),
        endMs: shift(trial.endMs),
        benchmark,
      });
    }
    for (const entry of part.order) {
      result.order.push({ ...entry, round: entry.round + roundOffset, benchmark });
    }
    roundOffset += 1 + Math.max(-1, ...part.order.map((entry) => entry.round));
    record.runs.push({ benchmark, argv, stopReason: part.stopReason });
    result.staggerMs = part.staggerMs ?? result.staggerMs;
    if (part.stopReason === 'failed' || part.stopReason === 'interrupted') {
      result.stopReason = part.stopReason;
      result.error =
        part.stopReason === 'failed' ? `benchmark ${benchmark}: ${part.error}` : part.error;
      return result;
    }
  }
  result.stopReason = overallStop(record.runs.map((r) => r.stopReason));
  return result;
}

/** The run's stop reason: the budget if any benchmark ran out of it, else precision if any. */
function overallStop(reasons: StopReason[]): StopReason {
  if (reasons.includes('budget')) return 'budget';
  if (reasons.includes('precision')) return 'precision';
  return 'iterations';
}
