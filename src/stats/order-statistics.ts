/**
 * Medians of resamples and of leave-out subsets of sorted data, without sorting again. Both are
 * the workhorses of the bootstrap and jackknife for median-based statistics.
 */

/**
 * Median of the multiset that takes `ascending[i]` `counts[i]` times (total `n`), by walking
 * the cumulative counts: O(length of ascending), no comparisons.
 */
export function medianOfCounts(ascending: Float64Array, counts: Int32Array, n: number): number {
  // 0-based ranks of the middle element(s)
  const hiRank = n >>> 1;
  const loRank = n % 2 === 1 ? hiRank : hiRank - 1;
  let seen = 0;
  let lo = 0;
  let haveLo = false;
  for (let i = 0; i < counts.length; i++) {
    seen += counts[i]!;
    if (!haveLo && seen > loRank) {
      lo = ascending[i]!;
      haveLo = true;
    }
    if (seen > hiRank) return (lo + ascending[i]!) / 2;
  }
  throw new RangeError(`medianOfCounts: counts add up to ${seen}, expected ${n}`);
}

/**
 * Median of `ascending` with the elements at the given positions left out. `removed` must be
 * ascending and distinct. O(removed.length).
 */
export function medianWithout(ascending: Float64Array, removed: ArrayLike<number>): number {
  const m = ascending.length - removed.length;
  if (m < 1) throw new RangeError('medianWithout: nothing left after removal');
  const hi = kthWithout(ascending, removed, m >>> 1);
  if (m % 2 === 1) return hi;
  return (kthWithout(ascending, removed, (m >>> 1) - 1) + hi) / 2;
}

/** k-th smallest (0-based) of `ascending` without the positions in ascending `removed`. */
function kthWithout(ascending: Float64Array, removed: ArrayLike<number>, k: number): number {
  let position = k;
  for (let j = 0; j < removed.length; j++) {
    if (removed[j]! <= position) position++;
    else break;
  }
  return ascending[position]!;
}
