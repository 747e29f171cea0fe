/**
 * Pooling independent estimates of one quantity, each given as an interval (fixed-effect,
 * inverse-variance weighting). Pure.
 */
import { normalPpf } from './normal.js';

/** An estimate with its interval at `level` (two-sided), on an additive scale. */
export interface IntervalEstimate {
  estimate: number;
  lower: number;
  upper: number;
  level: number;
}

/**
 * The inverse-variance weighted mean of independent estimates of one quantity, with its
 * interval at `level`. Each estimate's standard error is read from its interval as the wider
 * side divided by the normal quantile of its level: an interval built from Student's t (or one
 * that is asymmetric) gives a standard error at least as large as its own, so the pooled
 * interval errs on the wide side. The pooled standard error is 1/√Σ(1/seᵢ²); two equal
 * intervals pool to one √2 narrower around the same centre.
 *
 * Estimates with a zero-width interval carry no usable variance and are rejected, as are
 * non-finite values and levels outside (0, 1). Cost O(k).
 */
export function poolEstimates(
  parts: readonly IntervalEstimate[],
  level: number = parts[0]?.level ?? NaN,
): IntervalEstimate {
  if (parts.length === 0) throw new RangeError('poolEstimates needs at least one estimate');
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1), got ${level}`);
  let weights = 0;
  let weighted = 0;
  for (const [i, p] of parts.entries()) {
    if (!(p.level > 0 && p.level < 1))
      throw new RangeError(`estimate ${i}: level must be in (0, 1), got ${p.level}`);
    if (![p.estimate, p.lower, p.upper].every(Number.isFinite) || p.lower > p.upper)
      throw new RangeError(
        `estimate ${i}: needs finite lower ≤ upper, got [${p.lower}, ${p.upper}] around ${p.estimate}`,
      );
    const side = Math.max(p.upper - p.estimate, p.estimate - p.lower);
    if (!(side > 0))
      throw new RangeError(`estimate ${i}: its interval has no width, so no standard error`);
    const se = side / normalPpf(1 - (1 - p.level) / 2);
    const w = 1 / (se * se);
    weights += w;
    weighted += w * p.estimate;
  }
  const estimate = weighted / weights;
  const half = normalPpf(1 - (1 - level) / 2) / Math.sqrt(weights);
  return { estimate, lower: estimate - half, upper: estimate + half, level };
}
