import { median } from '../stats/descriptive.js';
import { wilsonInterval, type ProportionInterval } from '../stats/proportion.js';
import type { MethodName, WindowOutcome } from './methods.js';

/** Everything measured for one method, one condition and one injected change. Plain JSON. */
export interface CellSummary {
  method: MethodName;
  label: string;
  condition: string;
  /** Injected change: 0 for A/A. */
  change: number;
  /** The change the injected work really made, measured separately (null when unknown). */
  trueChange: number | null;
  comparisons: number;
  /**
   * A/A: comparisons that called any change (false positives). Otherwise: comparisons that
   * called a slowdown (detections in the right direction).
   */
  hits: number;
  /** hits / comparisons with its Wilson interval: the false-positive rate or the power. */
  rate: ProportionInterval;
  /** Injected changes only: comparisons that called an improvement (the wrong direction). */
  wrongDirection: number;
  medianEstimate: number | null;
  /** Median width of the confidence interval of the change (upper − lower). */
  medianCiWidth: number | null;
  medianMde: number | null;
  medianCv: number | null;
  /** Median machine time per comparison, seconds. */
  secondsPerComparison: number | null;
  /** Median values per side per comparison (pairs when paired). */
  medianN: number | null;
}

/** Summarises the windows of one cell. `rateLevel` is the level of the Wilson interval. Pure. */
export function summarizeCell(
  cell: {
    method: MethodName;
    label: string;
    condition: string;
    change: number;
    trueChange: number | null;
  },
  outcomes: readonly WindowOutcome[],
  rateLevel = 0.95,
): CellSummary {
  const aa = cell.change === 0;
  const hits = outcomes.filter((o) => (aa ? o.called !== 'none' : o.called === 'slower')).length;
  const med = (values: (number | null)[]): number | null => {
    const present = values.filter((v): v is number => v !== null && Number.isFinite(v));
    return present.length === 0 ? null : median(present);
  };
  return {
    ...cell,
    comparisons: outcomes.length,
    hits,
    rate: wilsonInterval(hits, outcomes.length, rateLevel),
    wrongDirection: aa ? 0 : outcomes.filter((o) => o.called === 'faster').length,
    medianEstimate: med(outcomes.map((o) => o.estimate)),
    medianCiWidth: med(
      outcomes.map((o) => (o.lower === null || o.upper === null ? null : o.upper - o.lower)),
    ),
    medianMde: med(outcomes.map((o) => o.mde)),
    medianCv: med(outcomes.map((o) => o.cv)),
    secondsPerComparison: med(outcomes.map((o) => o.seconds)),
    medianN: med(outcomes.map((o) => o.n)),
  };
}

/** What calibrate advises to reach a target MDE. */
export interface Recommendation {
  method: MethodName;
  label: string;
  targetMde: number;
  /** Seconds of measurement per comparison to reach the target. */
  budgetSeconds: number;
  /** Iterations (duet) or rounds (rmit) that budget holds, from the observed pace. */
  iterations: number;
  /** The MDE observed at the calibration budget. */
  observedMde: number;
  observedSeconds: number;
}

/** The fewest iterations (pairs, or trials per version) a recommendation asks for. */
export const MIN_RECOMMENDED_ITERATIONS = 30;

/**
 * For every method with an interval, the budget that reaches `targetMde`, from its A/A
 * comparisons: the MDE shrinks as 1/√n and n grows with the time spent, so
 * budget = observed seconds · (observed MDE / target)², but never fewer than
 * MIN_RECOMMENDED_ITERATIONS iterations: below that the 1/√n rule and the intervals
 * themselves (a 99% order-statistic interval needs 8 pairs) stop holding. The method needing the least time
 * wins; methods whose A/A false-positive rate is significantly above α (the Wilson interval
 * lies above it) are never recommended. Null when no method qualifies. Pure.
 */
export function recommend(
  cells: readonly CellSummary[],
  targetMde: number,
  alpha: number,
): Recommendation | null {
  if (!(targetMde > 0)) throw new RangeError(`--target-mde must be positive, got ${targetMde}`);
  const candidates = cells
    .filter(
      (c) =>
        c.change === 0 &&
        c.medianMde !== null &&
        c.secondsPerComparison !== null &&
        c.medianN !== null,
    )
    .filter((c) => !(c.rate.lower > alpha))
    .map((c) => {
      const factor = Math.max(
        (c.medianMde! / targetMde) ** 2,
        MIN_RECOMMENDED_ITERATIONS / c.medianN!,
      );
      const budgetSeconds = c.secondsPerComparison! * factor;
      return {
        method: c.method,
        label: c.label,
        targetMde,
        budgetSeconds,
        iterations: Math.ceil(c.medianN! * factor),
        observedMde: c.medianMde!,
        observedSeconds: c.secondsPerComparison!,
      };
    })
    .sort((a, b) => a.budgetSeconds - b.budgetSeconds);
  return candidates[0] ?? null;
}
