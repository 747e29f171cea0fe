import { MIN_SCREENING_PAIRS } from './allocation.js';
import {
  decisionFloor,
  lookSchedule,
  MIN_PAIRS_TO_CALL,
  type LookSchedule,
} from '../stats/sequential.js';
import type { SuiteSpec } from './schema.js';

/** What the plan needs to know of one unit (from the calibration, when there was one). */
export interface PlanUnit {
  name: string;
  nsPerOp: number | null;
  iterations: number | null;
  /** Timed parts of `iterations` each a repetition runs (go's `suite.parts`); absent: 1. */
  parts?: number;
  /** Its share of a process start (grouped: shared with others); absent: 1. */
  processShare?: number;
}

export interface PlanInput {
  spec: SuiteSpec;
  units: readonly PlanUnit[];
  /** The format pairs repetitions of one process by position (PreparedSuite.repeats). */
  repeats: boolean;
  /** The fewest repetitions its process can run (criterion: 10). */
  minRepetitions?: number;
  /** Seconds one process takes to start and measure nothing; null when not measured. */
  startupSeconds: number | null;
  /**
   * Processes of a round that run one after the other: 1 in a duet (the sides run at once),
   * the number of versions in RMIT (each side alone, in turn). Default 1.
   */
  sidesInSeries?: number;
  budgetSeconds: number;
  /** The analysis level (0.99): α = 1 − level is spent over the looks and the family. */
  level: number;
}

/** The suite's plan, fixed before measuring (plain data, recorded in samples.json). */
export interface SuitePlan {
  /** Repetitions per process (1 where the format cannot pair them). */
  repetitions: number;
  /**
   * The looks, with the first raised to the decision floor and to whole processes, and only as
   * many as the budget can reach, and one more (reachableLooks).
   */
  schedule: LookSchedule;
  /** The first look a budget that affords it gets (raised to the floor, whole rounds). */
  plannedFirstLook: number;
  /** Fewest pairs at which an exact rank test could call a change in this family. */
  decisionFloor: number;
  /** Predicted machine seconds of one round (one process per side) of each unit; null: unknown. */
  roundSeconds: Record<string, number | null>;
  /** Predicted seconds for every unit's first look (the screening); null when unknown. */
  screeningSeconds: number | null;
  /** Said at once when the budget cannot screen every unit, with the budget that would. */
  warning: string | null;
}

/** Share of the machine time that should measure: sizes the repetitions per process. */
const TARGET_EFFICIENCY = 0.85;
/** The harness's own cost per round of a duet (arming, the barrier, reading the output). */
export const HARNESS_SECONDS_PER_ROUND = 0.004;
/**
 * Process starts per side that every look rests on, at least. Repetitions of one process share
 * its start (memory layout, caches, frequency): with too few processes behind a look that
 * shared part is not averaged out, and the interval undercovers. Simulated in
 * `npm run bench:sequential-positional`: a process effect of 0.3% per side, 100 benchmarks,
 * 2 processes per look → 1.7% of intervals missed (nominal 1%), the bare test rejected in 10%
 * of A/A suites; 4 processes → 0.5% and 2.5%.
 */
const MIN_PROCESSES_PER_LOOK = 4;
const MAX_REPETITIONS = 50;
/** A budget recommended in the warning leaves this much beyond the screening for the doubtful. */
const FOCUS_SHARE = 1.5;

/**
 * Plans a suite before it measures: how many repetitions one process runs (enough for the
 * start-up to cost about 15% of the time, never more than a quarter of the first look: at
 * least four process starts per benchmark and side behind every look), the look
 * schedule (the first look no smaller than the decision floor of this family in rounds — a
 * round of repetitions is one pair for the test — and a whole number of rounds; as many
 * looks as the budget reaches, and one more), each unit's predicted cost per round, and whether the budget affords
 * every unit's first look — if not, a warning that says what it affords and what budget
 * would do. Pure.
 */
export function planSuite(input: PlanInput): SuitePlan {
  const { spec, units } = input;
  const alpha = 1 - input.level;
  const draft = lookSchedule(spec.firstLook, spec.growth, spec.looks);
  const floor = decisionFloor(Math.max(1, units.length), draft.weights[0]!, alpha);
  const floorRepetitions = input.repeats ? (input.minRepetitions ?? 1) : 1;
  // a format that cannot repeat less than r times needs looks of 4 processes of r each
  const wanted = Math.max(spec.firstLook, floor, MIN_PROCESSES_PER_LOOK * floorRepetitions);
  const repetitions = input.repeats
    ? Math.max(floorRepetitions, chooseRepetitions(input, wanted))
    : 1;
  // a round of repetitions is one pair for the test (analyze/blocks.ts): the floor is in rounds
  const first = Math.max(Math.ceil(wanted / repetitions), floor) * repetitions;
  const roundSeconds: Record<string, number | null> = {};
  for (const unit of units) roundSeconds[unit.name] = predictRound(input, unit, repetitions);
  const known = Object.values(roundSeconds);
  const rounds = first / repetitions;
  const screeningSeconds = known.some((s) => s === null)
    ? null
    : known.reduce<number>((a, s) => a + s! * rounds, 0);
  const affordable =
    screeningSeconds === null || !(screeningSeconds > 0)
      ? null
      : (first * input.budgetSeconds) / screeningSeconds;
  const schedule = scheduleFor(first, spec, affordable, repetitions);
  return {
    repetitions,
    schedule,
    plannedFirstLook: first,
    decisionFloor: floor,
    roundSeconds,
    screeningSeconds,
    warning: budgetWarning(
      input,
      screeningSeconds,
      first,
      roundSeconds,
      schedule.pairs[0]! < first ? schedule : null,
    ),
  };
}

/**
 * The looks for a budget that affords every unit `affordable` pairs (null: unknown): the
 * screening and confirming looks when that is short of the first look with a confirming share
 * beside it (screenThenConfirm), else the scheduled looks the budget reaches and one more
 * (reachableLooks). Pure.
 */
export function scheduleFor(
  first: number,
  spec: Pick<SuiteSpec, 'growth' | 'looks'>,
  affordable: number | null,
  repetitions: number,
): LookSchedule {
  return (
    screenThenConfirm(first, spec.growth, affordable, repetitions) ??
    lookSchedule(
      first,
      spec.growth,
      reachableLooks(lookSchedule(first, spec.growth, spec.looks).pairs, affordable),
    )
  );
}

/** Units measured before the schedule is checked against the pace they showed. */
export const REPLAN_AFTER_UNITS = 10;

/** What one unit measured so far took: its pairs and machine seconds, warm-up included. */
export interface MeasuredPace {
  name: string;
  pairs: number;
  seconds: number;
}

/** New looks from the pace, and the pace they came from (per pair of the measured units). */
export interface Replan {
  schedule: LookSchedule;
  secondsPerPair: number;
  /** What the plan predicted per pair of the same units; null when nothing was calibrated. */
  predictedSecondsPerPair: number | null;
}

/**
 * The looks again, from the pace the first units of the screening showed, before any unit has
 * reached a look; null when they stay as planned. The plan's prediction comes from a start-up
 * timed alone and the calibrated ns/op; on this 2-vCPU VM a duet's round cost twice that
 * (fastjson at `budget: 60s`: 0.10–0.14 s a pair measured, 0.05 s predicted), so the
 * screening look planned at 8 pairs was never reached, every benchmark was judged on 4–6
 * pairs, and the reserve for confirming was never used. The measured units' seconds against
 * what the plan predicted for them give a factor applied to the whole screening's prediction:
 * the first units of a list are often the cheap ones (fastjson's first ten ran at 0.08 s a
 * pair, the suite at 0.11), so their mean pace alone would overpromise. Without a calibrated
 * prediction, their mean pace is used. Looks chosen from time spent, before any look is
 * judged, depend on no comparison: the time is the sum of both sides', the same whichever
 * side is which, so the sequential guarantee holds as for looks fixed before measuring
 * (docs/suites.md). `secondsLeft` is what the budget has left. Returns the new looks with
 * the pace measured and the one predicted for the same units, for the record. Pure.
 */
export function replanFromPace(
  plan: Pick<
    SuitePlan,
    'schedule' | 'plannedFirstLook' | 'repetitions' | 'roundSeconds' | 'screeningSeconds'
  >,
  spec: Pick<SuiteSpec, 'growth' | 'looks'>,
  units: number,
  measured: readonly MeasuredPace[],
  secondsLeft: number,
): Replan | null {
  const pairs = measured.reduce((a, m) => a + m.pairs, 0);
  const seconds = measured.reduce((a, m) => a + m.seconds, 0);
  if (!(pairs > 0 && seconds > 0 && units > 0)) return null;
  // NaN when a measured unit was not calibrated: then there is no prediction to scale
  const predicted = measured.reduce(
    (a, m) => a + (plan.roundSeconds[m.name] ?? NaN) * (m.pairs / plan.repetitions),
    0,
  );
  const budget = seconds + Math.max(0, secondsLeft);
  const affordable =
    plan.screeningSeconds !== null && plan.screeningSeconds > 0 && predicted > 0
      ? (budget * plan.plannedFirstLook) / ((plan.screeningSeconds * seconds) / predicted)
      : (budget * pairs) / seconds / units;
  const schedule = scheduleFor(plan.plannedFirstLook, spec, affordable, plan.repetitions);
  const same =
    schedule.pairs.length === plan.schedule.pairs.length &&
    schedule.pairs.every((p, i) => p === plan.schedule.pairs[i]) &&
    schedule.weights.every((w, i) => w === plan.schedule.weights[i]);
  if (same) return null;
  return {
    schedule,
    secondsPerPair: seconds / pairs,
    predictedSecondsPerPair: Number.isFinite(predicted) ? predicted / pairs : null,
  };
}

/**
 * How many of the scheduled looks to keep, given the pairs the budget affords every unit
 * evenly (null: unknown, all of them): the looks it reaches, and one more for the doubtful
 * ones that the focus gives more time to. Every look costs the others a share of the error
 * (stats/sequential.ts): looks the budget cannot reach would spend it for nothing, and the
 * looks it reaches would be judged at a stricter level. A 2-minute budget on 100 benchmarks
 * affords about 10 pairs each, short of the first look: one look (or, when the screening can
 * have two rounds, screenThenConfirm's two), judged near the run's level (99%), instead of
 * four at 99.9% for the first — a t quantile of 4.0 instead of 6.9 at 10 pairs, intervals 40%
 * narrower. The number is fixed before measuring, from the calibration and the budget, never
 * from what is measured, so the guarantee holds.
 */
export function reachableLooks(pairs: readonly number[], affordable: number | null): number {
  if (affordable === null) return pairs.length;
  const reached = pairs.filter((p) => p <= affordable).length;
  return Math.max(1, Math.min(pairs.length, reached + 1));
}

/** Share of the affordable pairs a budget short of the first look keeps for confirming. */
export const CONFIRM_SHARE = 0.15;
/** Share of the error the confirming looks spend: they only need to confirm clear changes. */
export const CONFIRM_WEIGHT = 0.2;
/**
 * Of the confirming error, the share of the look after the confirming one (screenThenConfirm).
 * fastjson's `MarshalTo/canada`, +7.0% [+5.3%, +8.7%] true at a 5% threshold, was taken to its
 * confirming look (45–51 pairs) in every slowed 2-minute duet and read +4.5% to +8.6% with lower
 * bounds of −7.3% to +5.0% there: a change 2 points past the threshold needs an interval ±2
 * points wide, about 150 pairs of it — 12 s more of a reserve of ~17 s, which went to the
 * doubtful ones instead, because no look lay beyond. A quarter of the confirming error: such a
 * look is for a change already clear of zero at the confirming one, and the confirming look's
 * interval widens little (a t quantile at 99.85% instead of 99.8%: 3% wider at 50 pairs).
 */
export const AGAIN_SHARE = 0.25;

/**
 * The looks of a budget that cannot give every unit the first look and keep 15% beside it
 * for confirming (`affordable` pairs each, fewer than `first` ÷ 0.85), or null when it can (or
 * nothing is known): a **screening** look at 85% of what the budget affords every unit, in
 * whole rounds, and a **confirming** look at `growth` times that, and one at `growth` times
 * that again (AGAIN_SHARE), for which the other 15% of the budget is left. A budget that just
 * reaches the first look is such a budget too: fastjson's 2-minute duet, 15–18 pairs a second
 * once Go's calibration ran as the processes do, afforded 20.2 pairs each; the first look at
 * 20 took the whole budget, nothing was left for the focus, and `MarshalTo/canada` (+9% true)
 * ended at +10.7% [0.0%, +22.5%] `inconclusive` (BENCHMARKS.md, 2026-11-29 18:14). Without it
 * the whole
 * budget went to the screening and nothing was left: on fastjson at `budget: 2m` (100
 * benchmarks, ~10 pairs each) two of the six benchmarks of a slowed function stayed
 * `inconclusive` with intervals of +14% to +121%, short of the family's level at 7–8 pairs —
 * a gate that ran out of time before confirming the largest change it had seen (issue 21).
 * The focus gives the reserve to the units that look changed beyond the threshold, the
 * largest first (allocation.ts). The screening look spends 80% of the error, the confirming
 * ones 20% (15% and 5%): a clear change confirmed at three times its pairs needs little, and
 * an A/A screening keeps its interval (at 99%: a quantile 2% wider than one look's). Both looks are
 * fixed before measuring, from the calibration and the budget, so the sequential guarantee
 * holds (stats/sequential.ts). Null too when the screening would have fewer than two rounds:
 * then the budget is spent on the screening alone. A screening short of the call floor
 * (MIN_PAIRS_TO_CALL) confirms first at the floor, then at `growth` times, the confirming
 * error split between the two: its calls all wait for a confirming look, and the reserve must
 * reach them. On itertools at `budget: 2m` (131 benchmarks, 5 pairs each) a single confirming
 * look at 15 pairs reached 25 of the flagged benchmarks and left intervals such as −10.06%
 * [−10.06%, −10.00%] `inconclusive` at 5; one at the floor alone reached them all but ended
 * the run with time left, the A/A's doubtful ones short of pairs (BENCHMARKS.md,
 * 2026-11-29). Pure.
 */
export function screenThenConfirm(
  first: number,
  growth: number,
  affordable: number | null,
  perRound: number,
): LookSchedule | null {
  // the first look with the confirming share beside it: the usual looks (reachableLooks)
  if (affordable === null || !(affordable * (1 - CONFIRM_SHARE) < first)) return null;
  const rounds = Math.floor((affordable * (1 - CONFIRM_SHARE)) / perRound);
  const screening = rounds * perRound;
  if (rounds < 2 || screening < MIN_SCREENING_PAIRS) return null;
  const grown = Math.max(rounds + 1, Math.round(rounds * growth));
  const floor = Math.max(rounds + 1, Math.ceil(MIN_PAIRS_TO_CALL / perRound));
  if (screening < MIN_PAIRS_TO_CALL && floor < grown) {
    return {
      pairs: [screening, floor * perRound, grown * perRound],
      weights: [1 - CONFIRM_WEIGHT, CONFIRM_WEIGHT / 2, CONFIRM_WEIGHT / 2],
    };
  }
  // and once more at growth times that, for a change near the threshold the focus keeps first
  const again = Math.max(grown + 1, Math.round(grown * growth));
  return {
    pairs: [screening, grown * perRound, again * perRound],
    weights: [1 - CONFIRM_WEIGHT, CONFIRM_WEIGHT * (1 - AGAIN_SHARE), CONFIRM_WEIGHT * AGAIN_SHARE],
  };
}

/** Seconds one unit's round is predicted to take (null: nothing calibrated). */
function predictRound(input: PlanInput, unit: PlanUnit, repetitions: number): number | null {
  if (unit.nsPerOp === null || input.startupSeconds === null) return null;
  // one extra operation per part: Go runs every benchmark once with b.N = 1 first
  const work = (unit.parts ?? 1) * ((unit.iterations ?? 1) + 1) * unit.nsPerOp * 1e-9;
  const share = unit.processShare ?? 1;
  return (
    (input.sidesInSeries ?? 1) * (share * input.startupSeconds + repetitions * work) +
    share * HARNESS_SECONDS_PER_ROUND
  );
}

function chooseRepetitions(input: PlanInput, firstLook: number): number {
  const cap = Math.max(
    1,
    Math.min(MAX_REPETITIONS, Math.floor(firstLook / MIN_PROCESSES_PER_LOOK)),
  );
  const fixed = input.spec.repetitions;
  if (fixed !== 'auto') return fixed;
  if (input.startupSeconds === null) return input.minRepetitions ?? 1;
  const overhead = input.startupSeconds + HARNESS_SECONDS_PER_ROUND;
  // r·work / (r·work + overhead) ≥ target  ⇔  r ≥ overhead·target / (work·(1 − target))
  const work = Math.max(input.spec.iterationTime, 1e-6);
  const r = Math.ceil((overhead * TARGET_EFFICIENCY) / (work * (1 - TARGET_EFFICIENCY)));
  return Math.max(1, Math.min(cap, r));
}

function budgetWarning(
  input: PlanInput,
  screening: number | null,
  firstLook: number,
  roundSeconds: Record<string, number | null>,
  confirming: LookSchedule | null,
): string | null {
  if (screening === null) return null;
  const slowest = Object.entries(roundSeconds).sort((a, b) => b[1]! - a[1]!)[0];
  return screeningWarning(
    input.budgetSeconds,
    input.units.length,
    screening,
    firstLook,
    slowest === undefined ? null : { name: slowest[0], seconds: slowest[1]!, per: 'round' },
    confirming,
  );
}

/**
 * The warning for a screening that does not fit the budget (null when it fits): what the
 * budget affords, how many benchmarks will stay short of a look, and the budget that would
 * screen every one and leave half as much again for the doubtful ones.
 */
export function screeningWarning(
  budgetSeconds: number,
  units: number,
  screeningSeconds: number,
  firstLook: number,
  slowest: { name: string; seconds: number; per: 'round' | 'pair' } | null,
  /** The screen-then-confirm looks the plan chose instead (screenThenConfirm), if it did. */
  confirming: LookSchedule | null = null,
): string | null {
  if (screeningSeconds <= budgetSeconds) return null;
  const perUnit = screeningSeconds / units;
  const affordable = Math.floor(budgetSeconds / perUnit);
  const perPair = perUnit / firstLook;
  const pairsEach = Math.floor(budgetSeconds / (units * perPair));
  const withLeast = Math.min(units, Math.floor(budgetSeconds / (MIN_SCREENING_PAIRS * perPair)));
  const recommended = Math.ceil((screeningSeconds * FOCUS_SHARE) / 60) * 60;
  const outcome =
    confirming !== null
      ? `Every benchmark is screened at ${confirming.pairs[0]} pairs, breadth first, and ${Math.round(CONFIRM_SHARE * 100)}% of the budget ` +
        `is kept to take the changes the screening sees to ${confirming.pairs.slice(1).join(' then ')} pairs, the largest first; ` +
        `intervals of ${confirming.pairs[0]} pairs are wide, and many benchmarks will stay inconclusive.`
      : pairsEach >= MIN_SCREENING_PAIRS
        ? `Every benchmark is still measured, breadth first (about ${Math.min(pairsEach, firstLook)} pairs each), but about ` +
          `${units - affordable} will end with fewer pairs than a look needs and stay inconclusive.`
        : `It cannot even give every benchmark the ${MIN_SCREENING_PAIRS} pairs an interval needs: breadth first, about ` +
          `${withLeast} will get them and the other ${units - withLeast} will not be measured within the budget.`;
  return (
    `the budget left to measure (${Math.round(budgetSeconds)} s) cannot give all ${units} benchmarks their first look ` +
    `(${firstLook} pairs each: about ${Math.round(screeningSeconds)} s, ${perUnit.toFixed(2)} s per benchmark` +
    `${slowest === null ? '' : `; the slowest, ${slowest.name}, ${slowest.seconds.toFixed(2)} s per ${slowest.per}`}). ` +
    `${outcome} A budget of ${recommended / 60} min would screen every one ` +
    `and leave time for the doubtful; or select fewer (workload.benchmarks).`
  );
}
