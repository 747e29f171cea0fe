import type { Settle } from '../contracts/comparison.js';
import type { SamplesFile } from '../contracts/samples.js';
import type { Comparison } from '../stats/types.js';
import { pairsPerRound } from './round-pairs.js';
import { formatDuration } from './duration-text.js';

/** Beyond this much more machine time, a benchmark counts as too noisy for its size here. */
export const REASONABLE_SECONDS = 30 * 60;

/**
 * The time an inconclusive comparison needs to settle at this run's pace, or, when that is
 * beyond reason (REASONABLE_SECONDS), why the benchmark is too noisy here and what would
 * help. `perSecond` is the benchmark's own pace (its pairs over the machine time they took).
 */
export function settleAdvice(
  c: Comparison,
  perSecond: number,
  context: { isolation: SamplesFile['isolation']['kind']; medianIterationMs: number | null },
): Settle {
  const unit = c.paired ? 'pairs' : 'values per side';
  const sign = c.biggerIsBetter ? -1 : 1;
  const lo = Math.min(sign * c.ci.lower, sign * c.ci.upper);
  const hi = Math.max(sign * c.ci.lower, sign * c.ci.upper);
  const n = Math.min(c.n.base, c.n.head);
  const floor = c.ci.sequential?.callFloor ?? 0;
  if (n < floor && (lo > c.threshold || hi < -c.threshold)) {
    const more = floor - n;
    const seconds = perSecond > 0 ? more / perSecond : Infinity;
    return {
      more,
      seconds,
      perSecond,
      advice: `the interval clears the threshold, but a suite calls a change on at least ${floor} ${unit} (at fewer, a few processes in a slower mode together can look like one; docs/suites.md) and this look had ${n}: ${more} more ${unit} would settle it${Number.isFinite(seconds) ? `, ${formatDuration(seconds)} more at this run's pace` : ''}`,
    };
  }
  if (c.moreSamplesNeeded === null && (lo > c.threshold || hi < -c.threshold)) {
    return {
      more: null,
      seconds: null,
      perSecond,
      advice: `the interval clears the threshold, but with ${Math.min(c.n.base, c.n.head)} ${unit} the test adjusted for the whole family does not reject yet (adjusted p ${c.test.pValueAdjusted.toPrecision(2)}): a few more ${unit} would settle it`,
    };
  }
  if (c.moreSamplesNeeded === null) {
    return {
      more: null,
      seconds: null,
      perSecond,
      advice:
        'the estimate sits on the threshold: no number of pairs would settle it (a threshold further from the change would)',
    };
  }
  const seconds = perSecond > 0 ? c.moreSamplesNeeded / perSecond : Infinity;
  const pace = `${perSecond >= 10 ? perSecond.toFixed(0) : perSecond.toPrecision(2)} ${unit}/s`;
  if (seconds <= REASONABLE_SECONDS) {
    return {
      more: c.moreSamplesNeeded,
      seconds,
      perSecond,
      advice: `about ${c.moreSamplesNeeded} more ${unit} would settle it: ${formatDuration(seconds)} more at this run's ${pace}`,
    };
  }
  const helps: string[] = [];
  if (context.isolation === 'none' || context.isolation === 'taskset') {
    helps.push('CPU isolation (cpuset cgroups: root, or sudo on GitHub runners) was not in effect');
  }
  if (context.medianIterationMs !== null && context.medianIterationMs < 20) {
    helps.push(
      `each iteration measures only ${context.medianIterationMs.toPrecision(2)} ms: a longer one (suite.iterationTime, -benchtime) averages more work per pair`,
    );
  }
  helps.push(`a threshold above ±${+(c.mde * 100).toPrecision(2)}% (what this run could detect)`);
  return {
    more: c.moreSamplesNeeded,
    seconds,
    perSecond,
    advice: `too noisy at this size on this machine: settling it would take about ${formatDuration(seconds)} more at ${pace}; what would help: ${helps.join('; ')}`,
  };
}

/**
 * Pairs per second of each benchmark (by metric name): its measured rounds over the machine
 * time from each round's first start to its last end. For a run without per-benchmark
 * trials, every metric shares the run's pace.
 */
export function paceByMetric(
  samples: SamplesFile,
): Map<string, { perSecond: number; medianMs: number | null }> {
  const spans = new Map<
    string,
    { rounds: Set<number>; pairs: number; ms: number; walls: number[] }
  >();
  const perRound = pairsPerRound(samples.trials);
  const rounds = new Map<number, { start: number; end: number }>();
  for (const t of samples.trials) {
    const r = rounds.get(t.round) ?? { start: t.startMs, end: t.endMs };
    r.start = Math.min(r.start, t.startMs);
    r.end = Math.max(r.end, t.endMs);
    rounds.set(t.round, r);
  }
  for (const t of samples.trials) {
    for (const m of t.metrics) {
      const s = spans.get(m.name) ?? { rounds: new Set<number>(), pairs: 0, ms: 0, walls: [] };
      if (!s.rounds.has(t.round)) {
        const r = rounds.get(t.round)!;
        s.ms += r.end - r.start;
      }
      if (!t.warmup && !s.rounds.has(t.round)) {
        s.rounds.add(t.round);
        s.pairs += perRound.get(t.round) ?? 1;
      }
      s.walls.push(t.wallMs);
      spans.set(m.name, s);
    }
  }
  const out = new Map<string, { perSecond: number; medianMs: number | null }>();
  for (const [name, s] of spans) {
    const walls = [...s.walls].sort((a, b) => a - b);
    out.set(name, {
      perSecond: s.ms > 0 ? s.pairs / (s.ms / 1000) : 0,
      medianMs: walls.length === 0 ? null : walls[walls.length >> 1]!,
    });
  }
  return out;
}
