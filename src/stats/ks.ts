import { kolmogorovSf } from './kolmogorov.js';
import { ALTERNATIVES, checkOption, checkSample } from './ranks.js';
import type { Alternative } from './ranks.js';

export interface KsOptions {
  /**
   * `two-sided` (default): D = max|F_x − F_y|. `greater`: D⁺ = max(F_x − F_y), large when x
   * tends to be smaller. `less`: D⁻ = max(F_y − F_x).
   */
  alternative?: Alternative;
  /**
   * `auto` (default) is `exact` when both samples have ≤ 10,000 values, else `asymptotic`
   * (scipy's MAX_AUTO_N). As in scipy, `exact` falls back to `asymptotic` when lcm(n₁, n₂)
   * would not fit an int32, or for one-sided tests with n₁ ≠ n₂ when C(n₁+n₂, n₁) overflows a
   * double (where scipy's path count overflows).
   */
  method?: 'auto' | 'exact' | 'asymptotic';
}

export interface KsResult {
  /** D (as rounded to a multiple of 1/lcm(n₁, n₂) by the exact method, as scipy does). */
  statistic: number;
  pValue: number;
  method: 'exact' | 'asymptotic';
  /** The pooled value at which the ECDF difference reaches D. */
  location: number;
  /** +1 when F_x − F_y = D there, −1 when F_y − F_x = D. */
  sign: 1 | -1;
}

const METHODS = ['auto', 'exact', 'asymptotic'] as const;
const MAX_AUTO_N = 10000;
const LOG_MAX_DOUBLE = Math.log(Number.MAX_VALUE);

/**
 * Two-sample Kolmogorov–Smirnov test, matching `scipy.stats.ks_2samp(x, y, alternative,
 * method)` (scipy 1.17).
 *
 * - exact: P(D ≥ d) under H₀ over the C(n₁+n₂, n₁) equally likely orderings, i.e. lattice
 *   paths from (0,0) to (n₁,n₂), of which those touching |i·n₂ − j·n₁| ≥ h·g
 *   (d = h/lcm, g = gcd) count (Hodges 1958). Computed as the probability that a uniformly
 *   random path is absorbed at the boundary, summing only positive terms, so small p-values
 *   keep full relative precision. Cost O(n₁·n₂) time, O(n₂) memory.
 * - asymptotic, two-sided: P(D_{n'} ≥ d) of the one-sample statistic with
 *   n' = round(n₁n₂/(n₁+n₂)), see {@link kolmogorovSf}.
 * - asymptotic, one-sided: Hodges' (1958, eq. 5.3) exp(−2z² − 2z(m + 2n)/(3√(mn(m+n)))),
 *   z = d·√(mn/(m+n)), m ≥ n the sample sizes.
 * Statistic: O((n₁+n₂) log(n₁+n₂)).
 */
export function ksTwoSample(
  x: readonly number[],
  y: readonly number[],
  options: KsOptions = {},
): KsResult {
  checkSample('x', x);
  checkSample('y', y);
  const alternative = checkOption('alternative', options.alternative, ALTERNATIVES);
  const requested = checkOption('method', options.method, METHODS);
  const n1 = x.length;
  const n2 = y.length;
  const xs = [...x].sort((a, b) => a - b);
  const ys = [...y].sort((a, b) => a - b);
  const pooled = [...xs, ...ys];
  let minAt = 0;
  let maxAt = 0;
  let minDiff = Infinity;
  let maxDiff = -Infinity;
  pooled.forEach((v, i) => {
    const diff = countAtMost(xs, v) / n1 - countAtMost(ys, v) / n2;
    if (diff < minDiff) [minDiff, minAt] = [diff, i];
    if (diff > maxDiff) [maxDiff, maxAt] = [diff, i];
  });
  const minS = Math.min(1, Math.max(0, -minDiff));
  const useMin = alternative === 'less' || (alternative === 'two-sided' && minS > maxDiff);
  let d = useMin ? minS : maxDiff;
  const location = pooled[useMin ? minAt : maxAt]!;
  const sign = useMin ? -1 : 1;

  const g = gcd(n1, n2);
  let method: KsResult['method'] =
    requested === 'auto' ? (Math.max(n1, n2) <= MAX_AUTO_N ? 'exact' : 'asymptotic') : requested;
  if (requested === 'exact' && n1 / g >= 2147483647 / (n2 / g)) method = 'asymptotic';
  let p = NaN;
  if (method === 'exact') {
    const lcm = (n1 / g) * n2;
    const h = roundHalfEven(d * lcm);
    d = h / lcm;
    if (h === 0) p = 1;
    else if (alternative === 'two-sided') p = boundaryHitProbability(n1, n2, h * g, true);
    else if (n1 !== n2 && logBinomial(n1 + n2, n1) > LOG_MAX_DOUBLE) method = 'asymptotic';
    else p = boundaryHitProbability(n1, n2, h * g, false);
  }
  if (method === 'asymptotic') {
    const m = Math.max(n1, n2);
    const n = Math.min(n1, n2);
    const en = (m * n) / (m + n);
    if (alternative === 'two-sided') {
      p = kolmogorovSf(d, Math.max(1, roundHalfEven(en)));
    } else {
      const z = Math.sqrt(en) * d;
      p = Math.exp(-2 * z * z - (2 * z * (m + 2 * n)) / Math.sqrt(m * n * (m + n)) / 3);
    }
  }
  return { statistic: d, pValue: Math.min(1, Math.max(0, p)), method, location, sign };
}

/**
 * Probability that a uniformly random lattice path from (0,0) to (n₁,n₂) reaches a point
 * with i·n₂ − j·n₁ ≥ bound (or |i·n₂ − j·n₁| ≥ bound when `twoSided`). Row by row, the mass
 * of paths still inside moves right with probability (n₁ − i)/(N − i − j) and up with
 * probability (n₂ − j)/(N − i − j); mass landing on the boundary is added to the answer.
 * Cost O(n₁·n₂).
 */
function boundaryHitProbability(n1: number, n2: number, bound: number, twoSided: boolean): number {
  const total = n1 + n2;
  let prev = new Float64Array(n2 + 1);
  let cur = new Float64Array(n2 + 1);
  let hit = 0;
  for (let i = 0; i <= n1; i++) {
    for (let j = 0; j <= n2; j++) {
      let mass = i === 0 && j === 0 ? 1 : 0;
      if (i > 0) mass += (prev[j]! * (n1 - i + 1)) / (total - i + 1 - j);
      if (j > 0) mass += (cur[j - 1]! * (n2 - j + 1)) / (total - i - j + 1);
      const a = i * n2 - j * n1;
      if (a >= bound || (twoSided && -a >= bound)) {
        hit += mass;
        mass = 0;
      }
      cur[j] = mass;
    }
    [prev, cur] = [cur, prev];
  }
  return hit;
}

/** Number of entries of the ascending array `sorted` that are ≤ v (searchsorted 'right'). */
function countAtMost(sorted: readonly number[], v: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** numpy's round: to the nearest integer, halves to even. */
function roundHalfEven(v: number): number {
  const r = Math.round(v);
  return Math.abs(v % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** log C(n, k) as Σ log((n − k + i)/i). Cost O(k). */
function logBinomial(n: number, k: number): number {
  let s = 0;
  for (let i = 1; i <= Math.min(k, n - k); i++) s += Math.log((n - Math.min(k, n - k) + i) / i);
  return s;
}
