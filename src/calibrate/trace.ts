import { collectSeries } from '../analyze/series.js';
import type { SamplesFile } from '../contracts/samples.js';
import { median } from '../stats/descriptive.js';

/** One measured round of a recording: each version's value and the machine time it cost. */
export interface TraceRound {
  round: number;
  startMs: number;
  /** Value of the benchmark per version (median of the trial's values); null when absent. */
  values: (number | null)[];
  /**
   * Machine time charged to each version's trial: from its start to the start of the next
   * trial (so harness overhead between trials is charged too). In a duet both sides share the
   * round, and each is charged the whole round.
   */
  costMs: (number | null)[];
}

/** A recording reduced to what the trace-driven evaluation needs. Plain data. */
export interface Trace {
  mode: SamplesFile['mode'];
  versions: string[];
  benchmark: string;
  rounds: TraceRound[];
}

/**
 * Reduces a samples file to rounds of values and costs for one benchmark (default: the first
 * one measured). Warm-up rounds are dropped; so are rounds after a failure (none are kept
 * from an incomplete file's last, partial round, because every version must have run in it).
 */
export function traceFromSamples(samples: SamplesFile, benchmark?: string): Trace {
  const series = collectSeries(samples);
  const chosen = benchmark === undefined ? series[0] : series.find((s) => s.name === benchmark);
  if (chosen === undefined) {
    const names = series.map((s) => s.name).join(', ') || 'none';
    throw new RangeError(
      `benchmark ${JSON.stringify(benchmark ?? '(first)')} was not measured; measured: ${names}`,
    );
  }
  const measured = samples.trials.filter((t) => !t.warmup).sort((a, b) => a.startMs - b.startMs);
  const cost = new Map<string, number>();
  if (samples.mode === 'duet') {
    // One pass to group the trials by round (recordings hold tens of thousands of rounds).
    const byRound = new Map<number, { start: number; end: number; trials: typeof measured }>();
    for (const t of measured) {
      const r = byRound.get(t.round);
      if (r === undefined) byRound.set(t.round, { start: t.startMs, end: t.endMs, trials: [t] });
      else {
        r.start = Math.min(r.start, t.startMs);
        r.end = Math.max(r.end, t.endMs);
        r.trials.push(t);
      }
    }
    const starts = [...byRound.values()].sort((a, b) => a.start - b.start);
    starts.forEach((r, i) => {
      const charge = (starts[i + 1]?.start ?? r.end) - r.start;
      for (const t of r.trials) cost.set(key(t), charge);
    });
  } else {
    measured.forEach((t, i) => cost.set(key(t), (measured[i + 1]?.startMs ?? t.endMs) - t.startMs));
  }
  const rounds = new Map<number, TraceRound>();
  for (const t of measured) {
    let entry = rounds.get(t.round);
    if (entry === undefined) {
      entry = {
        round: t.round,
        startMs: t.startMs,
        values: samples.versions.map(() => null),
        costMs: samples.versions.map(() => null),
      };
      rounds.set(t.round, entry);
    }
    entry.startMs = Math.min(entry.startMs, t.startMs);
    const values = chosen.byVersion[t.version]!.get(t.round);
    entry.values[t.version] = values === undefined ? null : median(values);
    entry.costMs[t.version] = cost.get(key(t)) ?? null;
  }
  return {
    mode: samples.mode,
    versions: samples.versions.map((v) => v.name),
    benchmark: chosen.name,
    rounds: [...rounds.values()]
      .filter((r) => r.values.every((v) => v !== null))
      .sort((a, b) => a.startMs - b.startMs),
  };
}

function key(t: { version: number; round: number }): string {
  return `${t.version}:${t.round}`;
}

/**
 * Cuts consecutive rounds into non-overlapping windows that each cost at least `budgetMs`
 * (the run stops at the first round boundary past its budget, as `budget` does in a real
 * run); a last window that does not reach the budget is dropped. Returns [start, end) index
 * ranges into `costs`. Pure, O(n).
 */
export function cutWindows(costs: readonly number[], budgetMs: number): [number, number][] {
  if (!(budgetMs > 0)) throw new RangeError(`budget must be positive, got ${budgetMs} ms`);
  const windows: [number, number][] = [];
  let start = 0;
  let spent = 0;
  costs.forEach((cost, i) => {
    spent += cost;
    if (spent >= budgetMs) {
      windows.push([start, i + 1]);
      start = i + 1;
      spent = 0;
    }
  });
  return windows;
}
