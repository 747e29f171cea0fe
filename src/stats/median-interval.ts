import { quantileSorted } from './descriptive.js';

/** The distribution-free interval for a median, on the data's own scale. */
export interface MedianInterval {
  lower: number;
  upper: number;
  /**
   * Coverage the interval actually guarantees for independent values: at least the level
   * asked for, or less when there are too few values to reach it (then it is the whole range).
   */
  coverage: number;
  /** 1-based rank k of the lower end among the (effective) values; the upper end is n + 1 − k. */
  rank: number;
  /** Values the ranks refer to: n, or n / blockLength for autocorrelated values. */
  effectiveN: number;
}

/**
 * The order-statistic (sign-test) confidence interval for the median: [x₍ₖ₎, x₍ₙ₊₁₋ₖ₎] with the
 * largest k such that P(Binomial(n, ½) ≤ k − 1) ≤ (1 − level)/2. For independent values from
 * any continuous distribution its coverage is at least `level` — exactly, with no resampling,
 * which is what a bootstrap of the median lacks at small n (its distribution is lumpy and its
 * intervals undercover). With `blockLength` L > 1 (autocorrelated values) the ranks are found
 * for n/L values and placed at the same quantiles of all n (Hyndman & Fan type 7), which is
 * an approximation. `ascending` must be sorted. Cost O(n).
 */
export function medianInterval(
  ascending: ArrayLike<number>,
  level: number,
  blockLength = 1,
): MedianInterval {
  const n = ascending.length;
  if (n < 1) throw new RangeError('a median interval needs at least one value');
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1), got ${level}`);
  if (!(Number.isInteger(blockLength) && blockLength >= 1)) {
    throw new RangeError(`blockLength must be an integer ≥ 1, got ${blockLength}`);
  }
  const effectiveN = Math.max(1, Math.floor(n / blockLength));
  const { rank, tail } = signTestRank(effectiveN, (1 - level) / 2);
  const coverage = 1 - 2 * tail;
  if (effectiveN === n) {
    return { lower: ascending[rank - 1]!, upper: ascending[n - rank]!, coverage, rank, effectiveN };
  }
  if (effectiveN === 1) {
    return { lower: ascending[0]!, upper: ascending[n - 1]!, coverage, rank, effectiveN };
  }
  // rank k of effectiveN values ↦ the type-7 quantile at (k − 1)/(effectiveN − 1) of all n
  // (which would be x₍ₖ₎ itself when effectiveN = n, taken directly above).
  const p = (rank - 1) / (effectiveN - 1);
  return {
    lower: quantileSorted(ascending, p),
    upper: quantileSorted(ascending, 1 - p),
    coverage,
    rank,
    effectiveN,
  };
}

/**
 * Largest k ≥ 1 with P(Binomial(n, ½) ≤ k − 1) ≤ alpha, and that probability (the tail each
 * side of [x₍ₖ₎, x₍ₙ₊₁₋ₖ₎] leaves uncovered). When even k = 1 leaves more than alpha (tiny n),
 * k = 1 with its tail 2⁻ⁿ. The pmf is summed in log space, so any n works. O(n).
 */
export function signTestRank(n: number, alpha: number): { rank: number; tail: number } {
  if (!(Number.isInteger(n) && n >= 1)) throw new RangeError(`n must be an integer ≥ 1, got ${n}`);
  const half = Math.floor((n + 1) / 2); // the lower rank never passes the upper one
  let logPmf = -n * Math.LN2; // log P(X = 0)
  let rank = 1;
  let tail = Math.exp(logPmf); // P(X ≤ k − 1) for k = rank
  for (let k = 2; k <= half; k++) {
    logPmf += Math.log((n - k + 2) / (k - 1)); // P(X = k − 1) from P(X = k − 2)
    const next = tail + Math.exp(logPmf);
    if (next > alpha) break;
    rank = k;
    tail = next;
  }
  return { rank, tail };
}
