import { studentTPpf } from './student-t.js';

/** A trimmed mean with its Tukey–McLaughlin interval. */
export interface TrimmedMean {
  estimate: number;
  lower: number;
  upper: number;
  /** Values cut from each end, ⌊proportion·n⌋. */
  trimmed: number;
  /** Standard error √(winsorized variance)/((1 − 2γ)√n). */
  standardError: number;
  degreesOfFreedom: number;
}

/**
 * The γ-trimmed mean of sorted values (g = ⌊γn⌋ cut from each end) and the Tukey–McLaughlin
 * (1963) confidence interval: mean ± t₁₋α/₂,ₙ₋₂g₋₁ · s_w/((1 − 2γ)√n), s_w² the winsorized
 * sample variance (what `scipy.stats.mstats.trimmed_mean_ci` computes; Wilcox 2012 §4.4).
 * Robust to spikes in up to γ of the values at each end; for symmetric data it estimates the
 * centre. O(n). `ascending` must be sorted.
 */
export function trimmedMean(
  ascending: ArrayLike<number>,
  level: number,
  proportion = 0.2,
): TrimmedMean {
  const n = ascending.length;
  if (!(proportion >= 0 && proportion < 0.5)) {
    throw new RangeError(`trim proportion must be in [0, 0.5), got ${proportion}`);
  }
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1), got ${level}`);
  const g = Math.floor(proportion * n);
  if (n - 2 * g < 2) {
    throw new RangeError(`a trimmed-mean interval needs at least 2 values left, got ${n - 2 * g}`);
  }
  let sum = 0;
  for (let i = g; i < n - g; i++) sum += ascending[i]!;
  const estimate = sum / (n - 2 * g);
  const low = ascending[g]!;
  const high = ascending[n - g - 1]!;
  let wsum = 0;
  for (let i = 0; i < n; i++) wsum += Math.min(high, Math.max(low, ascending[i]!));
  const wmean = wsum / n;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (Math.min(high, Math.max(low, ascending[i]!)) - wmean) ** 2;
  const winsorizedVariance = ss / (n - 1);
  // (1 − 2γ) with the proportion asked for, as scipy does, not 2g/n
  const standardError = Math.sqrt(winsorizedVariance) / ((1 - 2 * proportion) * Math.sqrt(n));
  const degreesOfFreedom = n - 2 * g - 1;
  const t = studentTPpf(1 - (1 - level) / 2, degreesOfFreedom);
  return {
    estimate,
    lower: estimate - t * standardError,
    upper: estimate + t * standardError,
    trimmed: g,
    standardError,
    degreesOfFreedom,
  };
}

/**
 * The values, in their own order, with the g = ⌊γn⌋ lowest raised to the (g+1)-th lowest and
 * the g highest lowered to the (g+1)-th highest: the series whose variance the Tukey–McLaughlin
 * standard error uses (`trimmedMean`), so the series whose dependence matters to it.
 */
export function winsorized(values: ArrayLike<number>, proportion = 0.2): number[] {
  if (!(proportion >= 0 && proportion < 0.5)) {
    throw new RangeError(`trim proportion must be in [0, 0.5), got ${proportion}`);
  }
  const n = values.length;
  const out = Array.from(values);
  const g = Math.floor(proportion * n);
  if (g === 0) return out;
  const ascending = [...out].sort((a, b) => a - b);
  const low = ascending[g]!;
  const high = ascending[n - g - 1]!;
  return out.map((x) => Math.min(high, Math.max(low, x)));
}
