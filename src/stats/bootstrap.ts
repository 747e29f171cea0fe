import { pairedEstimator, sideEstimator, type Estimator } from './estimators.js';
import { drawIid, drawMovingBlocks } from './resample.js';
import { createRng, type Rng } from './rng.js';
import type { Statistic } from './types.js';

/**
 * Resamples per random stream. Chunk j draws from the seed's generator jumped j + 1 times
 * (2^64 draws apart), so the distribution is the same whether one thread computes every chunk
 * or several threads share them.
 */
export const RESAMPLES_PER_CHUNK = 1000;

/** Everything a bootstrap needs, as plain data (it can be sent to a worker thread). */
export type BootstrapPlan =
  | {
      /** Each side resampled independently; statistic(head)/statistic(base) − 1. */
      design: 'unpaired';
      base: readonly number[];
      head: readonly number[];
      statistic: Statistic;
      resamples: number;
      seed: number;
    }
  | {
      /** Pairs resampled together, in moving blocks when blockLength > 1. */
      design: 'paired';
      base: readonly number[];
      head: readonly number[];
      statistic: Statistic;
      resamples: number;
      seed: number;
      blockLength: number;
    };

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

export function chunkCount(resamples: number): number {
  return Math.ceil(resamples / RESAMPLES_PER_CHUNK);
}

/**
 * The bootstrap of a plan: the observed statistic, its distribution over resamples (computed
 * here, on this thread, unless `distribution` is given — see `bootstrapChunks`) and the
 * jackknife for BCa. Cost O(resamples · n).
 */
export function bootstrap(plan: BootstrapPlan, distribution?: Float64Array): BootstrapResult {
  const values =
    distribution ??
    concatenate(
      bootstrapChunks(
        plan,
        Array.from({ length: chunkCount(plan.resamples) }, (_, j) => j),
      ),
    );
  if (plan.design === 'paired') {
    const pairs = pairedEstimator(plan.base, plan.head, plan.statistic);
    return {
      observed: pairs.observed,
      distribution: values,
      jackknife: [pairs.jackknife(plan.blockLength)],
    };
  }
  const base = sideEstimator(plan.base, plan.statistic);
  const head = sideEstimator(plan.head, plan.statistic);
  return {
    observed: head.observed / base.observed - 1,
    distribution: values,
    jackknife: [
      base.jackknife(1).map((b) => head.observed / b - 1),
      head.jackknife(1).map((h) => h / base.observed - 1),
    ],
  };
}

/**
 * The resampled statistics of the given chunks (ascending indices), one array per chunk.
 * Unpaired: each resample draws base then head indices with replacement. Paired: each
 * resample draws pair indices, independently or in moving blocks. Pure.
 */
export function bootstrapChunks(plan: BootstrapPlan, chunks: readonly number[]): Float64Array[] {
  const draw = resampler(plan);
  // `cursor` is never drawn from: chunk j draws from the seed's stream jumped j + 1 times
  let cursor = createRng(plan.seed);
  let at = 0;
  return chunks.map((j) => {
    if (j < at) throw new RangeError(`bootstrapChunks: chunks must ascend, got ${j} after ${at}`);
    for (; at < j; at++) cursor = cursor.jumped();
    const rng = cursor.jumped();
    const count = Math.min(RESAMPLES_PER_CHUNK, plan.resamples - j * RESAMPLES_PER_CHUNK);
    const out = new Float64Array(Math.max(0, count));
    for (let r = 0; r < out.length; r++) out[r] = draw(rng);
    return out;
  });
}

/** One resample's statistic per call. */
function resampler(plan: BootstrapPlan): (rng: Rng) => number {
  if (plan.design === 'paired') {
    const pairs: Estimator = pairedEstimator(plan.base, plan.head, plan.statistic);
    const indices = new Int32Array(pairs.n);
    return (rng) => {
      drawMovingBlocks(pairs.n, plan.blockLength, indices, rng);
      return pairs.onIndices(indices);
    };
  }
  const base = sideEstimator(plan.base, plan.statistic);
  const head = sideEstimator(plan.head, plan.statistic);
  const bi = new Int32Array(base.n);
  const hi = new Int32Array(head.n);
  return (rng) => {
    drawIid(base.n, bi, rng);
    drawIid(head.n, hi, rng);
    return head.onIndices(hi) / base.onIndices(bi) - 1;
  };
}

function concatenate(parts: readonly Float64Array[]): Float64Array {
  const out = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
