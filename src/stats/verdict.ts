import type { Verdict } from './types.js';

export interface VerdictInput {
  change: number;
  lower: number;
  upper: number;
  /** Practical threshold, a fraction ≥ 0. */
  threshold: number;
  pValueAdjusted: number;
  /** Significance level 1 − CI level. */
  alpha: number;
  biggerIsBetter: boolean;
  /** Current samples per side (pairs when paired), for `moreSamplesNeeded`. */
  n: number;
  /**
   * The fewest samples (pairs) at which a change is called: below it a CI beyond the threshold
   * is `inconclusive`, with the samples still missing as `moreSamplesNeeded`. Default 0.
   */
  minPairsToCall?: number;
}

/** Whether a verdict calls a change (a regression or an improvement). */
export function callsChange(verdict: Verdict): verdict is 'regression' | 'improvement' {
  return verdict === 'regression' || verdict === 'improvement';
}

/**
 * The verdict against a practical threshold t, in "worse" units (positive = worse; for
 * bigger-is-better metrics the sign flips):
 *  - regression: the whole CI is beyond +t and the (adjusted) test rejects at α;
 *  - improvement: the whole CI is beyond −t and the test rejects;
 *  - unchanged: the CI lies inside [−t, +t];
 *  - inconclusive: anything else (the CI straddles ±t, or the CI clears t but the adjusted
 *    test does not reject, or there are fewer than `minPairsToCall` samples).
 */
export function decideVerdict(input: VerdictInput): {
  verdict: Verdict;
  moreSamplesNeeded: number | null;
} {
  const sign = input.biggerIsBetter ? -1 : 1;
  const c = sign * input.change;
  const lo = Math.min(sign * input.lower, sign * input.upper);
  const hi = Math.max(sign * input.lower, sign * input.upper);
  const t = input.threshold;
  const significant = input.pValueAdjusted < input.alpha;
  const short = Math.max(0, (input.minPairsToCall ?? 0) - input.n);
  if (lo > t && significant && short === 0) {
    return { verdict: 'regression', moreSamplesNeeded: null };
  }
  if (hi < -t && significant && short === 0) {
    return { verdict: 'improvement', moreSamplesNeeded: null };
  }
  if (lo >= -t && hi <= t) return { verdict: 'unchanged', moreSamplesNeeded: null };
  const clears = lo > t || hi < -t;
  if (clears && short > 0) return { verdict: 'inconclusive', moreSamplesNeeded: short };
  return {
    verdict: 'inconclusive',
    moreSamplesNeeded: clears ? null : samplesToSettle(c, lo, hi, t, input.n),
  };
}

/**
 * Further samples for the interval to clear the threshold, assuming its half-widths shrink
 * as 1/√n around the same point estimate: the interval must move off the nearest boundary it
 * crosses, so n' = n·(half-width / distance to boundary)². Null when the estimate sits on a
 * boundary (no sample size would settle it).
 */
function samplesToSettle(c: number, lo: number, hi: number, t: number, n: number): number | null {
  let ratio: number;
  if (c > t) ratio = (c - lo) / (c - t);
  else if (c < -t) ratio = (hi - c) / (-t - c);
  else if (c < t && c > -t) ratio = Math.max((hi - c) / (t - c), (c - lo) / (c + t));
  else return null;
  if (!Number.isFinite(ratio)) return null;
  return Math.max(1, Math.ceil(n * ratio * ratio - n));
}
