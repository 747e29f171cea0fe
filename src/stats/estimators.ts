import { sorted } from './descriptive.js';
import { medianOfCounts, medianWithout } from './order-statistics.js';
import type { Statistic } from './types.js';

/**
 * A statistic prepared for fast resampling: its value on the data, on a resample given by
 * indices, and on the data with consecutive blocks left out (the jackknife, for BCa).
 */
export interface Estimator {
  readonly n: number;
  readonly observed: number;
  /** Value on the resample `data[indices[0..n)]`. */
  onIndices(indices: Int32Array): number;
  /**
   * Values with each non-overlapping block of `blockLength` consecutive elements left out in
   * turn (the last block may be shorter). blockLength 1 is the ordinary jackknife.
   */
  jackknife(blockLength: number): Float64Array;
}

const NOT_BOOTSTRAPPED =
  'the trimmed mean is not bootstrapped: its interval is computed directly (compare.ts)';

/** One side's statistic (median, mean or geometric mean) of positive data. */
export function sideEstimator(values: readonly number[], statistic: Statistic): Estimator {
  switch (statistic) {
    case 'median':
      return medianEstimator(Float64Array.from(values));
    case 'mean':
      return meanEstimator(Float64Array.from(values), (s) => s);
    case 'gmean':
      return meanEstimator(Float64Array.from(values, Math.log), Math.exp);
    case 'trimmed':
      throw new RangeError(NOT_BOOTSTRAPPED);
  }
}

/**
 * Paired statistic of the ratios head_i/base_i, as a relative change:
 * `gmean`: exp(mean log(h/b)) − 1; `median`: exp(median log(h/b)) − 1 (the median ratio; for an
 * even count the geometric mid-point of the middle two, so swapping base and head inverts
 * the change exactly); `mean`: Σh/Σb − 1 (ratio of means).
 */
export function pairedEstimator(
  base: readonly number[],
  head: readonly number[],
  statistic: Statistic,
): Estimator {
  const n = base.length;
  switch (statistic) {
    case 'gmean':
      return shifted(
        meanEstimator(
          Float64Array.from({ length: n }, (_, i) => Math.log(head[i]! / base[i]!)),
          Math.exp,
        ),
      );
    case 'median':
      return shifted(
        mapped(
          medianEstimator(
            Float64Array.from({ length: n }, (_, i) => Math.log(head[i]! / base[i]!)),
          ),
          Math.exp,
        ),
      );
    case 'mean':
      return shifted(ratioOfMeansEstimator(Float64Array.from(base), Float64Array.from(head)));
    case 'trimmed':
      throw new RangeError(NOT_BOOTSTRAPPED);
  }
}

/** An estimator whose every value goes through `f` (monotone, e.g. exp from the log scale). */
function mapped(e: Estimator, f: (x: number) => number): Estimator {
  return {
    n: e.n,
    observed: f(e.observed),
    onIndices: (indices) => f(e.onIndices(indices)),
    jackknife: (blockLength) => e.jackknife(blockLength).map(f),
  };
}

/** x ↦ x − 1 applied to an estimator of a ratio, giving a relative change. */
function shifted(e: Estimator): Estimator {
  return {
    n: e.n,
    observed: e.observed - 1,
    onIndices: (indices) => e.onIndices(indices) - 1,
    jackknife: (blockLength) => e.jackknife(blockLength).map((v) => v - 1),
  };
}

function blockCount(n: number, blockLength: number): number {
  return Math.ceil(n / blockLength);
}

/**
 * Sums of xs without each block, from prefix and suffix sums (no subtraction from the total,
 * which would cancel catastrophically when the block holds most of the mass). O(n).
 */
function sumsWithoutBlocks(xs: Float64Array, blockLength: number): Float64Array {
  const n = xs.length;
  const prefix = new Float64Array(n + 1);
  const suffix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i]! + xs[i]!;
  for (let i = n - 1; i >= 0; i--) suffix[i] = suffix[i + 1]! + xs[i]!;
  const out = new Float64Array(blockCount(n, blockLength));
  for (let b = 0; b < out.length; b++) {
    out[b] = prefix[b * blockLength]! + suffix[Math.min(n, (b + 1) * blockLength)]!;
  }
  return out;
}

/** Number of elements left when block b is removed. */
function remaining(n: number, blockLength: number, b: number): number {
  return n - (Math.min(n, (b + 1) * blockLength) - b * blockLength);
}

/** f(mean(xs)); mean of a resample by summing, jackknife from prefix/suffix sums. */
function meanEstimator(xs: Float64Array, f: (mean: number) => number): Estimator {
  const n = xs.length;
  let total = 0;
  for (let i = 0; i < n; i++) total += xs[i]!;
  return {
    n,
    observed: f(total / n),
    onIndices(indices) {
      let s = 0;
      for (let i = 0; i < n; i++) s += xs[indices[i]!]!;
      return f(s / n);
    },
    jackknife(blockLength) {
      return sumsWithoutBlocks(xs, blockLength).map((s, b) => f(s / remaining(n, blockLength, b)));
    },
  };
}

/** Median; resample medians from multiplicity counts over the sorted data (no sorting). */
function medianEstimator(xs: Float64Array): Estimator {
  const n = xs.length;
  const order = Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => xs[a]! - xs[b]!);
  const ascending = sorted(xs);
  const rankOf = new Int32Array(n);
  order.forEach((original, rank) => (rankOf[original] = rank));
  const counts = new Int32Array(n);
  return {
    n,
    observed: medianWithout(ascending, []),
    onIndices(indices) {
      counts.fill(0);
      for (let i = 0; i < n; i++) counts[rankOf[indices[i]!]!]! += 1;
      return medianOfCounts(ascending, counts, n);
    },
    jackknife(blockLength) {
      const out = new Float64Array(blockCount(n, blockLength));
      for (let b = 0; b < out.length; b++) {
        const end = Math.min(n, (b + 1) * blockLength);
        const removed = Int32Array.from(
          { length: end - b * blockLength },
          (_, j) => rankOf[b * blockLength + j]!,
        ).sort();
        out[b] = medianWithout(ascending, removed);
      }
      return out;
    },
  };
}

/** Σhead/Σbase over the same (resampled) pairs. */
function ratioOfMeansEstimator(base: Float64Array, head: Float64Array): Estimator {
  const n = base.length;
  let sb = 0;
  let sh = 0;
  for (let i = 0; i < n; i++) {
    sb += base[i]!;
    sh += head[i]!;
  }
  return {
    n,
    observed: sh / sb,
    onIndices(indices) {
      let b = 0;
      let h = 0;
      for (let i = 0; i < n; i++) {
        const k = indices[i]!;
        b += base[k]!;
        h += head[k]!;
      }
      return h / b;
    },
    jackknife(blockLength) {
      const bs = sumsWithoutBlocks(base, blockLength);
      const hs = sumsWithoutBlocks(head, blockLength);
      return hs.map((h, b) => h / bs[b]!);
    },
  };
}
