import { MIN_SCREENING_PAIRS } from './allocation.js';
import { decisionFloor, lookSchedule, type LookSchedule } from '../stats/sequential.js';
import type { SuiteSpec } from './schema.js';

/** What the plan needs to know of one unit (from the calibration, when there was one). */
export interface PlanUnit {
  name: string;
  nsPerOp: number | null;
  iterations: number | null;
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
  const schedule = lookSchedule(
    first,
    spec.growth,
    reachableLooks(lookSchedule(first, spec.growth, spec.looks).pairs, affordable),
  );
  return {
    repetitions,
    schedule,
    decisionFloor: floor,
    roundSeconds,
    screeningSeconds,
    warning: budgetWarning(input, screeningSeconds, first, roundSeconds),
  };
}

/**
 * How many of the scheduled looks to keep, given the pairs the budget affords every unit
 * evenly (null: unknown, all of them): the looks it reaches, and one more for the doubtful
 * ones that the focus gives more time to. Every look costs the others a share of the error
 * (stats/sequential.ts): looks the budget cannot reach would spend it for nothing, and the
 * looks it reaches would be judged at a stricter level. A 2-minute budget on 100 benchmarks
 * affords about 10 pairs each, short of the first look: one look, judged at the run's level
 * (99%), instead of four at 99.9% for the first — a t quantile of 4.0 instead of 6.9 at
 * 10 pairs, intervals 40% narrower. The number is fixed before measuring, from the
 * calibration and the budget, never from what is measured, so the guarantee holds.
 */
export function reachableLooks(pairs: readonly number[], affordable: number | null): number {
  if (affordable === null) return pairs.length;
  const reached = pairs.filter((p) => p <= affordable).length;
  return Math.max(1, Math.min(pairs.length, reached + 1));
}

/** Seconds one unit's round is predicted to take (null: nothing calibrated). */
function predictRound(input: PlanInput, unit: PlanUnit, repetitions: number): number | null {
  if (unit.nsPerOp === null || input.startupSeconds === null) return null;
  // one extra operation per repetition: Go runs every benchmark once with b.N = 1 first
  const work = ((unit.iterations ?? 1) + 1) * unit.nsPerOp * 1e-9;
  return (
    (input.sidesInSeries ?? 1) * (input.startupSeconds + repetitions * work) +
    HARNESS_SECONDS_PER_ROUND
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
): string | null {
  if (screening === null) return null;
  const slowest = Object.entries(roundSeconds).sort((a, b) => b[1]! - a[1]!)[0];
  return screeningWarning(
    input.budgetSeconds,
    input.units.length,
    screening,
    firstLook,
    slowest === undefined ? null : { name: slowest[0], seconds: slowest[1]!, per: 'round' },
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
): string | null {
  if (screeningSeconds <= budgetSeconds) return null;
  const perUnit = screeningSeconds / units;
  const affordable = Math.floor(budgetSeconds / perUnit);
  const perPair = perUnit / firstLook;
  const pairsEach = Math.floor(budgetSeconds / (units * perPair));
  const withLeast = Math.min(units, Math.floor(budgetSeconds / (MIN_SCREENING_PAIRS * perPair)));
  const recommended = Math.ceil((screeningSeconds * FOCUS_SHARE) / 60) * 60;
  const outcome =
    pairsEach >= MIN_SCREENING_PAIRS
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
