import type { EntryBenchmark, HistoryEntry } from '../history/schema.js';
import { median } from '../stats/descriptive.js';
import type { Verdict } from '../stats/types.js';
import { callsChange } from '../stats/verdict.js';

/**
 * One run's paired comparison of its head against another commit (base..head), as the run's
 * own duet or RMIT judged it: a step measured within one run on one machine, so the runner's
 * noise between nights does not enter it. A nightly with `base-from-history: true` makes one
 * every night (tonight's head against the previous run's commit); a push run, against the
 * branch's previous tip.
 */
export interface PairedStep {
  runId: string;
  /** The run's start (ISO). */
  at: string;
  baseCommit: string;
  headCommit: string | null;
  /** Relative change head/base − 1 with the run's interval. */
  change: number;
  ci: { level: number; lower: number; upper: number };
  verdict: Verdict;
  /** The practical threshold the verdict used (fraction). */
  threshold: number;
  pValueAdjusted: number | null;
  runUrl: string | null;
}

/** A benchmark's paired comparisons in the window: how many, how wide, which called a change. */
export interface PairedSummary {
  comparisons: number;
  /** Median width (upper − lower) of their intervals: the size of step they resolve. */
  medianCiWidth: number | null;
  /** Those whose verdict was regression or improvement, oldest first. */
  called: PairedStep[];
}

/**
 * The paired comparison recorded with a benchmark of an entry, when the run compared its head
 * with a different commit. A/A runs (their comparison moved to the `aa` block), runs without a
 * base commit (a scenario of two directories) and comparisons of a commit with itself are
 * not steps: null. Pure.
 */
export function pairedStepOf(entry: HistoryEntry, b: EntryBenchmark): PairedStep | null {
  const c = b.comparison;
  if (c === null || c.baseCommit === null) return null;
  const head = entry.commit?.id ?? null;
  if (head !== null && head === c.baseCommit) return null;
  return {
    runId: entry.runId,
    at: new Date(Date.parse(entry.run.startedAt)).toISOString(),
    baseCommit: c.baseCommit,
    headCommit: head,
    change: c.change,
    ci: { level: c.ci.level, lower: c.ci.lower, upper: c.ci.upper },
    verdict: c.verdict,
    threshold: c.threshold,
    pValueAdjusted: c.pValueAdjusted,
    runUrl: entry.run.url,
  };
}

/** A step whose verdict called a change. */
export function isCalled(
  step: PairedStep,
): step is PairedStep & { verdict: 'regression' | 'improvement' } {
  return callsChange(step.verdict);
}

/** The paired comparisons of a series (oldest first), summarised. Pure. */
export function summarisePaired(all: readonly PairedStep[]): PairedSummary {
  return {
    comparisons: all.length,
    medianCiWidth: all.length === 0 ? null : median(all.map((s) => s.ci.upper - s.ci.lower)),
    called: all.filter(isCalled),
  };
}

/** A suite's paired comparisons: how many runs made them, and what the latest one called. */
export interface SuitePaired {
  runs: number;
  comparisons: number;
  called: number;
  /** The latest run with paired comparisons, and the benchmarks it called changed. */
  latest: {
    runId: string;
    at: string;
    baseCommit: string;
    headCommit: string | null;
    /** The practical threshold its verdicts used. */
    threshold: number;
    called: { benchmark: string; step: PairedStep }[];
  } | null;
}

/** Over a suite's benchmarks (each with its steps, oldest first). Null when there are none. */
export function suitePaired(
  benchmarks: readonly { benchmark: string; steps: readonly PairedStep[] }[],
): SuitePaired | null {
  const runs = new Map<string, PairedStep>();
  let comparisons = 0;
  let called = 0;
  for (const b of benchmarks) {
    for (const s of b.steps) {
      comparisons++;
      if (isCalled(s)) called++;
      runs.set(s.runId, s);
    }
  }
  if (runs.size === 0) return null;
  const latest = [...runs.values()].sort((a, b) => a.at.localeCompare(b.at)).at(-1)!;
  return {
    runs: runs.size,
    comparisons,
    called,
    latest: {
      runId: latest.runId,
      at: latest.at,
      baseCommit: latest.baseCommit,
      headCommit: latest.headCommit,
      threshold: latest.threshold,
      called: benchmarks.flatMap((b) =>
        b.steps
          .filter((s) => s.runId === latest.runId && isCalled(s))
          .map((step) => ({ benchmark: b.benchmark, step })),
      ),
    },
  };
}
