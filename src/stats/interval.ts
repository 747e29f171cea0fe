import { quantileSorted } from './descriptive.js';
import { normalCdf, normalPpf } from './normal.js';
import type { BootstrapResult } from './bootstrap.js';
import type { IntervalMethod } from './types.js';

export interface IntervalEndpoints {
  lower: number;
  upper: number;
  /** The method actually used (BCa falls back to percentile when it is undefined). */
  method: IntervalMethod;
  note?: string;
}

/**
 * Two-sided bootstrap interval at `level` from a bootstrap result. Quantiles of the bootstrap
 * distribution use linear interpolation (Hyndman & Fan type 7), as scipy.stats.bootstrap does.
 */
export function bootstrapInterval(
  result: BootstrapResult,
  level: number,
  method: IntervalMethod,
): IntervalEndpoints {
  const ascending = Float64Array.from(result.distribution).sort();
  const alpha = (1 - level) / 2;
  if (method === 'percentile') {
    return {
      lower: quantileSorted(ascending, alpha),
      upper: quantileSorted(ascending, 1 - alpha),
      method,
    };
  }
  const adjusted = bcaLevels(result, ascending, alpha);
  if (adjusted === null) {
    return {
      lower: quantileSorted(ascending, alpha),
      upper: quantileSorted(ascending, 1 - alpha),
      method: 'percentile',
      note: 'BCa is undefined here (the whole bootstrap distribution lies on one side of the estimate); the percentile interval is reported instead',
    };
  }
  return {
    lower: quantileSorted(ascending, adjusted[0]),
    upper: quantileSorted(ascending, adjusted[1]),
    method,
  };
}

/**
 * Bias-corrected and accelerated percentile levels (Efron 1987; Efron & Tibshirani 1993,
 * §14.3), with scipy's conventions:
 *  z₀ = Φ⁻¹(p), p = (#{θ* < θ̂} + #{θ* ≤ θ̂}) / 2B;
 *  â = Σⱼ Σᵢ Uⱼᵢ³/nⱼ³ / (6 (Σⱼ Σᵢ Uⱼᵢ²/nⱼ²)^{3/2}), Uⱼᵢ = (nⱼ − 1)(θ̄ⱼ − θⱼ₍ᵢ₎) from the jackknife
 *  of each sample j (the multi-sample generalisation used by scipy.stats.bootstrap);
 *  α' = Φ(z₀ + (z₀ + z_α) / (1 − â (z₀ + z_α))).
 * A constant jackknife gives â = 0. Returns null where BCa is undefined (z₀ infinite). O(B + Σ nⱼ).
 */
export function bcaLevels(
  result: BootstrapResult,
  ascending: Float64Array,
  alpha: number,
): [number, number] | null {
  const theta = result.observed;
  let below = 0;
  let belowOrEqual = 0;
  for (const v of ascending) {
    if (v < theta) below++;
    if (v <= theta) belowOrEqual++;
  }
  const z0 = normalPpf((below + belowOrEqual) / (2 * ascending.length));
  if (!Number.isFinite(z0)) return null;
  let num = 0;
  let den = 0;
  for (const values of result.jackknife) {
    const n = values.length;
    let mean = 0;
    for (const v of values) mean += v;
    mean /= n;
    for (const v of values) {
      const u = (n - 1) * (mean - v);
      num += u ** 3 / n ** 3;
      den += u ** 2 / n ** 2;
    }
  }
  const a = den === 0 ? 0 : num / (6 * den ** 1.5);
  const level = (z: number): number => normalCdf(z0 + (z0 + z) / (1 - a * (z0 + z)));
  const lo = level(normalPpf(alpha));
  const hi = level(normalPpf(1 - alpha));
  if (!(Number.isFinite(lo) && Number.isFinite(hi))) return null;
  return [lo, hi];
}
