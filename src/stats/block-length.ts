import { chiSquaredSf } from './chi-squared.js';

/**
 * Automatic block length for the moving/circular block bootstrap of a stationary series:
 * Politis & White (2004), "Automatic block-length selection for the dependent bootstrap",
 * with the correction of Patton, Politis & White (2009).
 *
 *  1. m̂: the smallest lag after which K_n = max(5, ⌈√log₁₀ n⌉) consecutive sample
 *     autocorrelations are all below c·√(log₁₀ n / n), c = 2 (insignificant);
 *  2. M = min(2m̂, m_max), m_max = ⌈√n⌉ + K_n; flat-top lag window λ(t) = 1 for |t| ≤ ½,
 *     2(1 − |t|) for ½ < |t| ≤ 1, 0 beyond;
 *  3. Ĝ = Σ_{|k|≤M} λ(k/M)|k|R̂(k), D̂_CB = (4/3)(Σ_{|k|≤M} λ(k/M)R̂(k))²;
 *  4. b = (2Ĝ²/D̂_CB)^{1/3} n^{1/3}, capped at min(3√n, n/3), rounded, at least 1.
 *
 * Cost O(n·m_max) = O(n^{3/2}).
 */
export function optimalBlockLength(series: ArrayLike<number>): number {
  const n = series.length;
  if (n < 8) return 1;
  const kn = Math.max(5, Math.ceil(Math.sqrt(Math.log10(n))));
  const mMax = Math.min(Math.ceil(Math.sqrt(n)) + kn, n - 1);
  const bMax = Math.ceil(Math.min(3 * Math.sqrt(n), n / 3));
  const autocov = autocovariances(series, mMax);
  if (autocov[0] === 0) return 1;
  const threshold = 2 * Math.sqrt(Math.log10(n) / n);
  const insignificant = (k: number): boolean => Math.abs(autocov[k]! / autocov[0]!) < threshold;
  let mHat = mMax;
  for (let m = 0; m + kn <= mMax; m++) {
    let quiet = true;
    for (let j = 1; j <= kn && quiet; j++) quiet = insignificant(m + j);
    if (quiet) {
      mHat = m;
      break;
    }
  }
  const bigM = Math.min(2 * mHat, mMax);
  if (bigM === 0) return 1;
  const flatTop = (t: number): number => {
    const a = Math.abs(t);
    return a <= 0.5 ? 1 : a <= 1 ? 2 * (1 - a) : 0;
  };
  let g = 0;
  let spectral = autocov[0]!;
  for (let k = 1; k <= bigM; k++) {
    const w = flatTop(k / bigM);
    g += 2 * w * k * autocov[k]!;
    spectral += 2 * w * autocov[k]!;
  }
  const dCb = (4 / 3) * spectral * spectral;
  if (!(dCb > 0)) return 1;
  const b = Math.cbrt((2 * g * g) / dCb) * Math.cbrt(n);
  return Math.max(1, Math.min(bMax, Math.round(b)));
}

/**
 * The sample autocovariances of lags 0 to `maxLag` (< n): Σ_t (x_t − x̄)(x_{t+k} − x̄) / n, the
 * biased estimate both `optimalBlockLength` and the Ljung–Box test use. O(n·maxLag).
 */
export function autocovariances(series: ArrayLike<number>, maxLag: number): Float64Array {
  const n = series.length;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += series[i]!;
  mean /= n;
  const centred = Float64Array.from(series, (x) => x - mean);
  const out = new Float64Array(maxLag + 1);
  for (let k = 0; k <= maxLag; k++) {
    let s = 0;
    for (let t = 0; t + k < n; t++) s += centred[t]! * centred[t + k]!;
    out[k] = s / n;
  }
  return out;
}

/**
 * The Ljung–Box portmanteau test of "no autocorrelation up to lag h":
 * Q = n(n+2) Σ_{k=1}^{h} r̂_k² / (n − k), r̂_k the sample autocorrelation at lag k (the ratio of
 * `autocovariances`, as statsmodels' acorr_ljungbox computes it), against χ²_h. A constant
 * series has no autocorrelation to test: p = 1.
 */
export function ljungBox(
  series: ArrayLike<number>,
  lags: number,
): { statistic: number; pValue: number; lags: number } {
  const n = series.length;
  if (!(Number.isInteger(lags) && lags >= 1 && lags < n)) {
    throw new RangeError(`lags must be an integer from 1 to n − 1 = ${n - 1}, got ${lags}`);
  }
  const autocov = autocovariances(series, lags);
  if (!(autocov[0]! > 0)) return { statistic: 0, pValue: 1, lags };
  let q = 0;
  for (let k = 1; k <= lags; k++) q += (autocov[k]! / autocov[0]!) ** 2 / (n - k);
  const statistic = n * (n + 2) * q;
  return { statistic, pValue: chiSquaredSf(statistic, lags), lags };
}

/** Lags the dependence test looks at for n values: min(10, n/5), at least 1 (Hyndman's rule). */
export function dependenceLags(n: number): number {
  return Math.max(1, Math.min(10, Math.floor(n / 5)));
}

/**
 * Level at which the pairs must show autocorrelation before they are resampled in blocks.
 * Politis–White alone finds blocks in independent series too: in 3–4% of standard normal
 * series of 8 to 36 values (4,000 a size), then near its cap of n/3, so that a benchmark's
 * 27 pairs count as 3; with the test first, 0.6–1.1% (`npm run bench:block-length`). A real
 * suite's pairs are close to independent: the lag-1 autocorrelations of 1,598 benchmarks
 * (≥ 20 pairs, 127 committed runs of Go, Rust and Python suites, duet and RMIT) scatter as
 * independent series' do (z mean 0.06, sd 1.09); Politis–White blocked 5.9% of them, the
 * test first 2.3%. Blocked, fastjson's ParseRawNumber/-1234 (+39% true) read [−13%, +116%]
 * at 27 pairs, `inconclusive`.
 */
export const DEPENDENCE_ALPHA = 0.01;

/**
 * The block length a paired analysis uses with `blockLength: auto`: 1 when the Ljung–Box
 * test finds no autocorrelation at `alpha` (the pairs are taken as independent), else the
 * Politis–White length. Fewer than 8 values: 1 (too few to tell).
 */
export function autoBlockLength(series: ArrayLike<number>, alpha = DEPENDENCE_ALPHA): number {
  const n = series.length;
  if (n < 8) return 1;
  if (ljungBox(series, dependenceLags(n)).pValue >= alpha) return 1;
  return optimalBlockLength(series);
}
