import type { Trial } from '../contracts/samples.js';

/**
 * Pairs each measured round holds: one, or — where a trial's values are repetitions paired by
 * position (`positional`) — as many as the fewest values any version's trial of the round
 * has. What pace, efficiency and a look count, so that a process of 5 repetitions is 5 pairs.
 */
export function pairsPerRound(trials: readonly Trial[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const t of trials) {
    if (t.warmup) continue;
    const primary = t.metrics.find((m) => m.derivedFrom === undefined);
    const pairs = primary?.positional === true ? primary.values.length : 1;
    out.set(t.round, Math.min(out.get(t.round) ?? Infinity, pairs));
  }
  return out;
}
