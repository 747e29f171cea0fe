/**
 * Descriptive statistics of plain number arrays. Callers validate their data (see `Sample`);
 * these functions assume finite values and at least one element.
 */

/** Arithmetic mean. O(n). */
export function mean(xs: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i]!;
  return s / xs.length;
}

/** Geometric mean exp(mean(log x)); null when a value is not positive. O(n). */
export function geometricMean(xs: ArrayLike<number>): number | null {
  let s = 0;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i]!;
    if (!(x > 0)) return null;
    s += Math.log(x);
  }
  return Math.exp(s / xs.length);
}

/** Sample standard deviation with Bessel's correction (n − 1); 0 for one value. O(n). */
export function standardDeviation(xs: ArrayLike<number>): number {
  const n = xs.length;
  if (n < 2) return 0;
  const m = mean(xs);
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (xs[i]! - m) ** 2;
  return Math.sqrt(ss / (n - 1));
}

/** Coefficient of variation sd/mean (a fraction, not a percentage). */
export function coefficientOfVariation(xs: ArrayLike<number>): number {
  const m = mean(xs);
  return m === 0 ? 0 : standardDeviation(xs) / Math.abs(m);
}

/** Ascending copy as a Float64Array. O(n log n). */
export function sorted(xs: ArrayLike<number>): Float64Array {
  return Float64Array.from(xs).sort();
}

/**
 * Quantile of already-sorted data by linear interpolation between order statistics:
 * Hyndman & Fan (1996) definition 7, the default of R, NumPy (`method='linear'`) and Excel's
 * PERCENTILE.INC. h = (n − 1)·p; Q(p) = x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]) (0-based). O(1).
 */
export function quantileSorted(ascending: ArrayLike<number>, p: number): number {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`quantile: p must be in [0, 1], got ${p}`);
  const n = ascending.length;
  if (n === 0) throw new RangeError('quantile: needs at least one value, got none');
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  const a = ascending[lo]!;
  const b = ascending[hi]!;
  // −∞ − −∞ and 0·∞ are NaN: equal ends, and a lower end of −∞ (the log ratio of a head of
  // 0), are the quantile themselves.
  if (a === b || a === -Infinity) return a;
  return a + (h - lo) * (b - a);
}

/** Quantile (definition 7, see `quantileSorted`) of unsorted data. O(n log n). */
export function quantile(xs: ArrayLike<number>, p: number): number {
  return quantileSorted(sorted(xs), p);
}

/** Median: the 0.5 quantile (mean of the two middle values for even n). */
export function median(xs: ArrayLike<number>): number {
  return quantile(xs, 0.5);
}

/**
 * Median absolute deviation from the median, unscaled: median(|x − median(x)|). Multiply by
 * 1.4826 for a consistent estimator of σ under normality. O(n log n).
 */
export function medianAbsoluteDeviation(xs: ArrayLike<number>): number {
  const m = median(xs);
  return median(Array.from(xs, (x) => Math.abs(x - m)));
}

/**
 * k-th smallest element (0-based) of `xs[0..length)`, partially reordering `xs` in place
 * (Hoare's quickselect with median-of-three pivots). Expected O(n).
 */
export function selectInPlace(xs: Float64Array, k: number, length = xs.length): number {
  let lo = 0;
  let hi = length - 1;
  while (hi > lo) {
    const mid = (lo + hi) >>> 1;
    // median of three as pivot
    let a = xs[lo]!;
    let b = xs[mid]!;
    const c = xs[hi]!;
    if (a > b) [a, b] = [b, a];
    const pivot = c < a ? a : c > b ? b : c;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (xs[i]! < pivot) i++;
      while (xs[j]! > pivot) j--;
      if (i <= j) {
        const t = xs[i]!;
        xs[i] = xs[j]!;
        xs[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return xs[k]!;
  }
  return xs[k]!;
}

/** Median of `xs[0..length)` in expected O(n), reordering `xs` in place. */
export function medianInPlace(xs: Float64Array, length = xs.length): number {
  const k = length >>> 1;
  const upper = selectInPlace(xs, k, length);
  if (length % 2 === 1) return upper;
  // after selection, everything left of k is ≤ upper; the lower middle is their maximum
  let lower = -Infinity;
  for (let i = 0; i < k; i++) if (xs[i]! > lower) lower = xs[i]!;
  return (lower + upper) / 2;
}
