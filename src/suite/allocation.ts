import type { LookSchedule } from '../stats/sequential.js';

/** The fewest pairs a screening share gives a unit: an interval needs 2. */
export const MIN_SCREENING_PAIRS = 2;

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
  /** The largest relative change (absolute) the last look estimated, null before one. */
  change?: number | null;
  /**
   * Whether that change's interval at the last look leaves out zero (it looks changed, not
   * only noisy); a unit without it is treated as one that does.
   */
  clear?: boolean;
  /**
   * That change over its interval's half-width at the last look (1 or more when the interval
   * leaves out zero), null when unknown.
   */
  evidence?: number | null;
}

/**
 * The evidence (change ÷ the interval's half-width) from which a change estimated beyond the
 * threshold, its interval still across zero, is confirmed before the doubtful: half an
 * interval from zero, 1.5 standard errors of a 99% interval. fastjson's `MarshalTo/canada`,
 * +9% true, read +6.2% [−3.0%, +16.3%] (0.64) at 12 pairs of a 2-minute duet and, ordered with
 * the doubtful by the time it was predicted to need (none: its estimate lay near the
 * threshold), never got its next look; an A/A's noisy `ObjectGet/items_100000` read −8%
 * [−35%, +25%] (0.27), which must not take the budget first.
 */
export const POTENTIAL_EVIDENCE = 0.5;

/** One unit's share of the next stage: pairs to add, reaching `look`. */
export interface StageEntry {
  name: string;
  pairs: number;
  look: number;
}

/**
 * The next stage of an adaptive suite run, breadth first. **Screening**: while some unit has
 * not reached the first look, the stage gives the units with the fewest pairs their next
 * share of it — half the first look's rounds (one round when a round is several repetitions),
 * or less when the time left cannot give every unit still screening that much (what it
 * affords at their seconds per pair, or `fallbackSecondsPerPair` — the pace measured so far —
 * for those not yet measured), never less than an interval needs (2 pairs) — so every unit is
 * measured before any gets more, and a budget that ends mid-screening leaves every unit with
 * pairs, never some with all and the rest with none. The caller asks again after each unit
 * while screening, so the shares follow the pace as it is measured. **Focus**: after that, only units
 * whose last look left them open (the interval straddles the threshold, or a change not yet
 * sure enough for the family) get time, each up to its next scheduled look: first those that
 * look changed beyond the threshold (the estimate beyond it, the interval clear of zero),
 * breadth first again — every one of them to its next look before any goes further (with a
 * screening short of the call floor, every flagged change gets the floor's look before one
 * gets a third) —, the largest change first among those at the same look (a gate must confirm
 * the largest regression it has seen before its time runs out); then those that may be
 * changed beyond it (the estimate beyond it, the interval across zero but the estimate at
 * least `POTENTIAL_EVIDENCE` of its half-width from zero: a change near the threshold, which
 * the time to settle predicts as never), breadth first, the strongest evidence first — a
 * noisy estimate whose interval spans far on both sides waits with the doubtful —; then the
 * others in order of the time they are predicted to need to settle (the pairs
 * their interval needs × their seconds per pair; those no number of pairs is predicted to
 * settle last), as long as the stage fits in `secondsLeft`. The changes and may-be changes
 * make a stage of their own while one of them fits, the doubtful only come after: each change
 * is judged again at its new look first, and one still near the threshold goes on to the look
 * after it before the doubtful get the reserve (fastjson's `MarshalTo/canada`, +7% true, read
 * +7.3% [+4.8%, +9.9%] at its confirming look in a stage that also took seven doubtful ones
 * to theirs, and no time was left for its next look). Empty when nothing is open or
 * nothing fits: the run ends. The decisions look at where the intervals lie, which is why
 * every look spends part of the error (stats/sequential.ts). Pure.
 */
export function nextStage(
  units: readonly UnitState[],
  schedule: LookSchedule,
  secondsLeft: number,
  fallbackSecondsPerPair: number,
  /**
   * One process runs the stage's units together (`granularity: group`): each unit's seconds
   * per pair is then its share of the process, and a stage costs as many rounds as its
   * largest share needs times the sum of its units' shares.
   */
  shared = false,
  /** Pairs one round (one process per side) gives: the repetitions per process. */
  perRound = 1,
  /** The practical threshold: units estimated beyond it are confirmed first. */
  threshold = Infinity,
): StageEntry[] {
  const cost = (u: UnitState, pairs: number): number =>
    pairs * (u.secondsPerPair ?? fallbackSecondsPerPair);
  const firstLook = schedule.pairs[0]!;
  const screening = units.filter((u) => u.pairs < firstLook && u.look < 0);
  if (screening.length > 0) {
    const half = Math.max(1, Math.ceil(Math.ceil(firstLook / perRound) / 2));
    // the least that forms an interval (2 pairs), in whole rounds, never above half
    const least = Math.min(half, Math.ceil(MIN_SCREENING_PAIRS / perRound));
    // what the time left affords every unit still screening, per round of each
    const sweepRound = screening.reduce((a, u) => a + cost(u, perRound), 0);
    const afford = sweepRound > 0 ? Math.floor(secondsLeft / sweepRound) : half;
    const rounds = Math.max(least, Math.min(half, afford));
    // the units with the fewest pairs first: no unit gets more before every other has as many
    const fewest = Math.min(...screening.map((u) => u.pairs));
    return screening
      .filter((u) => u.pairs === fewest)
      .map((u) => ({
        name: u.name,
        pairs: Math.min(rounds * perRound, firstLook - u.pairs),
        look: 0,
      }));
  }
  const open = units
    .filter((u) => u.decision === 'open' && u.look + 1 < schedule.pairs.length)
    .map((u) => {
      const need = u.pairsToSettle === null ? Infinity : cost(u, u.pairsToSettle);
      const add = schedule.pairs[u.look + 1]! - u.pairs;
      const change = Math.abs(u.change ?? 0);
      const evidence = u.evidence ?? 0;
      // 2: looks changed beyond the threshold; 1: may be; 0: doubtful
      const rank =
        change <= threshold ? 0 : u.clear !== false ? 2 : evidence >= POTENTIAL_EVIDENCE ? 1 : 0;
      return { u, need, add, rank, change, evidence };
    })
    .sort(
      (a, b) =>
        b.rank - a.rank ||
        (a.rank > 0 ? a.u.look - b.u.look : 0) ||
        (a.rank === 2 ? b.change - a.change : 0) ||
        (a.rank === 1 ? b.evidence - a.evidence : 0) ||
        a.need - b.need ||
        a.u.name.localeCompare(b.u.name),
    );
  /** The entries, in order, that the time left affords (each up to its next look). */
  const fill = (entries: typeof open): StageEntry[] => {
    const stage: StageEntry[] = [];
    let left = secondsLeft;
    // shared: the process runs every unit of the stage for as many rounds as the largest share
    let rounds = 0;
    let perRoundSeconds = 0;
    for (const { u, add } of entries) {
      if (add <= 0) continue;
      const seconds = cost(u, add);
      if (shared) {
        const more = cost(u, 1);
        if (Math.max(rounds, add) * (perRoundSeconds + more) > secondsLeft) continue;
        rounds = Math.max(rounds, add);
        perRoundSeconds += more;
      } else {
        if (seconds > left) continue;
        left -= seconds;
      }
      stage.push({ name: u.name, pairs: add, look: u.look + 1 });
    }
    return stage;
  };
  // the changes first, in a stage of their own while one of them fits: judged again after it,
  // a change still near the threshold goes on to its next look before the doubtful get any
  const changes = fill(open.filter((e) => e.rank > 0));
  return changes.length > 0 ? changes : fill(open);
}

/**
 * Seconds a pair of a grouped process should take: long enough to share the start-up among
 * several units (itertools' criterion binary: 0.28 s), short enough that the two sides of an
 * RMIT pair do not fall into different speed phases of the machine. One process for all 131
 * benchmarks (7 s a side) read A/A intervals 93% wide (median) on a VM whose vCPUs slow by
 * 1.7 times for seconds at a time.
 */
export const GROUP_PAIR_SECONDS = 2;

/** Units per grouped process: GROUP_PAIR_SECONDS at a unit's share of a pair, 10 unknown. */
export function groupChunk(units: number, secondsPerPair: number): number {
  const size = Number.isFinite(secondsPerPair)
    ? Math.round(GROUP_PAIR_SECONDS / Math.max(secondsPerPair, 1e-3))
    : 10;
  return Math.max(1, Math.min(units, size));
}
