import type { LookSchedule } from '../stats/sequential.js';

/** Where one benchmark of a suite stands between stages. Plain data. */
export interface UnitState {
  name: string;
  /** Pairs measured so far. */
  pairs: number;
  /** Look (0-based) those pairs reached, −1 before the first. */
  look: number;
  /** Machine seconds per pair observed so far, null before any. */
  secondsPerPair: number | null;
  /**
   * What the last look said: `settled` (its interval lies inside ±threshold or wholly beyond
   * it), `open` (it straddles the threshold), or null before the first look.
   */
  decision: 'settled' | 'open' | null;
  /** For `open`: further pairs the interval needs to settle (1/√n), null when none would. */
  pairsToSettle: number | null;
}

/** One unit's share of the next stage: pairs to add, reaching `look`. */
export interface StageEntry {
  name: string;
  pairs: number;
  look: number;
}

/**
 * The next stage of an adaptive suite run. Every unit first reaches the first look; after
 * that only units whose last look left them open (the interval straddles the threshold) get
 * time, each up to its next scheduled look, in order of the time they are predicted to need
 * to settle (the pairs their interval needs × their seconds per pair; those no number of
 * pairs is predicted to settle last), as long as the stage fits in `secondsLeft`. Empty when
 * nothing is open or nothing fits: the run ends. The decisions look at where the intervals
 * lie, which is why every look spends part of the error (stats/sequential.ts). Pure.
 */
export function nextStage(
  units: readonly UnitState[],
  schedule: LookSchedule,
  secondsLeft: number,
  fallbackSecondsPerPair: number,
  /** One process runs the stage's units together (`granularity: group`): they share the cost. */
  shared = false,
): StageEntry[] {
  const cost = (u: UnitState, pairs: number): number =>
    pairs * (u.secondsPerPair ?? fallbackSecondsPerPair);
  const first = units.filter((u) => u.look < 0);
  if (first.length > 0) {
    // the first look is for everyone: no unit is judged on fewer pairs than the schedule's
    return first.map((u) => ({ name: u.name, pairs: schedule.pairs[0]! - u.pairs, look: 0 }));
  }
  const open = units
    .filter((u) => u.decision === 'open' && u.look + 1 < schedule.pairs.length)
    .map((u) => {
      const need = u.pairsToSettle === null ? Infinity : cost(u, u.pairsToSettle);
      const add = schedule.pairs[u.look + 1]! - u.pairs;
      return { u, need, add };
    })
    .sort((a, b) => a.need - b.need || a.u.name.localeCompare(b.u.name));
  const stage: StageEntry[] = [];
  let left = secondsLeft;
  let sharedSeconds = 0;
  for (const { u, add } of open) {
    const seconds = cost(u, add);
    if (shared) {
      // the stage costs what its longest share costs: adding a unit adds its own work only
      if (Math.max(sharedSeconds, seconds) > secondsLeft) continue;
      sharedSeconds = Math.max(sharedSeconds, seconds);
    } else {
      if (seconds > left) continue;
      left -= seconds;
    }
    stage.push({ name: u.name, pairs: add, look: u.look + 1 });
  }
  return stage;
}
