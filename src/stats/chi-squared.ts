import { normalSf } from './normal.js';

const LOG_SQRT_2PI = 0.9189385332046728; // ln √(2π)

/**
 * Upper tail Q(x; ν) = P(χ²_ν ≥ x) of the chi-squared distribution with an integer number of
 * degrees of freedom ν ≥ 1 (scipy.stats.chi2.sf). Integer ν has closed forms that are sums of
 * positive terms (Abramowitz & Stegun 26.4.4 and 26.4.5), so both tails keep full relative
 * precision:
 *   even ν = 2k:     Q = e^{−x/2} Σ_{j=0}^{k−1} (x/2)^j / j!
 *   odd  ν = 2k + 1: Q = 2Q_N(√x) + 2φ(√x) Σ_{j=1}^{k} x^{j−½} / (1·3·5···(2j−1))
 * (Q_N the standard normal upper tail, φ its density). The terms are summed in log space
 * relative to the largest, so nothing under- or overflows before the final scaling. Cost O(ν).
 */
export function chiSquaredSf(x: number, df: number): number {
  if (!(Number.isInteger(df) && df >= 1)) {
    throw new RangeError(`df must be an integer ≥ 1, got ${df}`);
  }
  if (Number.isNaN(x)) throw new RangeError('x must be a number, got NaN');
  if (x <= 0) return 1;
  if (x === Infinity) return 0;
  const logs: number[] = [];
  if (df % 2 === 0) {
    const half = x / 2;
    const logHalf = Math.log(half);
    let logFactorial = 0;
    for (let j = 0; j < df / 2; j++) {
      if (j > 0) logFactorial += Math.log(j);
      logs.push(-half + j * logHalf - logFactorial);
    }
    return sumExp(logs);
  }
  const logX = Math.log(x);
  let logOddFactorial = 0;
  for (let j = 1; j <= (df - 1) / 2; j++) {
    logOddFactorial += Math.log(2 * j - 1);
    logs.push(Math.LN2 - x / 2 - LOG_SQRT_2PI + (j - 0.5) * logX - logOddFactorial);
  }
  return Math.min(1, 2 * normalSf(Math.sqrt(x)) + (logs.length > 0 ? sumExp(logs) : 0));
}

/** Σ e^{l} for log terms l, scaled by the largest so no term overflows. */
function sumExp(logs: readonly number[]): number {
  let max = -Infinity;
  for (const l of logs) if (l > max) max = l;
  if (max === -Infinity) return 0;
  let sum = 0;
  for (const l of logs) sum += Math.exp(l - max);
  return Math.min(1, Math.exp(max) * sum);
}
