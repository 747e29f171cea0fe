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
  let mean = 0;
  for (let i = 0; i < n; i++) mean += series[i]!;
  mean /= n;
  const centred = Float64Array.from(series, (x) => x - mean);
  const kn = Math.max(5, Math.ceil(Math.sqrt(Math.log10(n))));
  const mMax = Math.min(Math.ceil(Math.sqrt(n)) + kn, n - 1);
  const bMax = Math.ceil(Math.min(3 * Math.sqrt(n), n / 3));
  const autocov = new Float64Array(mMax + 1);
  for (let k = 0; k <= mMax; k++) {
    let s = 0;
    for (let t = 0; t + k < n; t++) s += centred[t]! * centred[t + k]!;
    autocov[k] = s / n;
  }
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
