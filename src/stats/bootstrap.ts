import type { Estimator } from './estimators.js';
import { drawIid, drawMovingBlocks } from './resample.js';
import type { Rng } from './rng.js';

/** What the bootstrap produced: the distribution and what BCa needs besides it. */
export interface BootstrapResult {
  observed: number;
  /** One value of the statistic per resample. */
  distribution: Float64Array;
  /**
   * Jackknife values per group of data (one group per resampled sample), for the BCa
   * acceleration: leave-one-out values, or leave-one-block-out for the block bootstrap.
   */
  jackknife: Float64Array[];
}

/**
 * Unpaired bootstrap of the relative change stat(head)/stat(base) − 1: each resample draws
 * base and head independently with replacement (base first, then head, from one generator).
 * Cost O(resamples · (n_base + n_head)).
 */
export function bootstrapUnpaired(
  base: Estimator,
  head: Estimator,
  resamples: number,
  rng: Rng,
): BootstrapResult {
  const bi = new Int32Array(base.n);
  const hi = new Int32Array(head.n);
  const distribution = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    drawIid(base.n, bi, rng);
    drawIid(head.n, hi, rng);
    distribution[r] = head.onIndices(hi) / base.onIndices(bi) - 1;
  }
  return {
    observed: head.observed / base.observed - 1,
    distribution,
    jackknife: [
      base.jackknife(1).map((b) => head.observed / b - 1),
      head.jackknife(1).map((h) => h / base.observed - 1),
    ],
  };
}

/**
 * Paired bootstrap: resample whole pairs, independently (blockLength 1) or in moving blocks
 * of consecutive pairs for autocorrelated series. Cost O(resamples · n).
 */
export function bootstrapPaired(
  pairs: Estimator,
  resamples: number,
  blockLength: number,
  rng: Rng,
): BootstrapResult {
  const indices = new Int32Array(pairs.n);
  const distribution = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    drawMovingBlocks(pairs.n, blockLength, indices, rng);
    distribution[r] = pairs.onIndices(indices);
  }
  return { observed: pairs.observed, distribution, jackknife: [pairs.jackknife(blockLength)] };
}
