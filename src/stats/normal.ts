/**
 * The standard normal distribution: CDF, upper tail and inverse CDF, accurate to a few ulp
 * over the whole double range (checked against scipy.special.ndtr / ndtri).
 *
 * Φ(x) − ½ is Marsaglia's all-positive series (J. Stat. Softw. 11(4), 2004)
 *   Φ(x) − ½ = φ(x)·(x + x³/3 + x⁵/(3·5) + x⁷/(3·5·7) + …),
 * used for |x| ≤ 1.5 (where its cancellation costs < 1 digit). Beyond that the upper tail
 * Q(x) = 1 − Φ(x) = φ(x)·R(x) uses Laplace's continued fraction for Mills' ratio
 *   R(x) = 1/(x + 1/(x + 2/(x + 3/(x + …)))),
 * so far tails are computed directly, never as 1 − Φ. φ(x) = e^{−x²/2}/√(2π) splits x into a
 * 4-bit-fraction head and a tail so that x² is formed without rounding error.
 */

const SQRT_2PI = 2.5066282746310002; // √(2π)
const SERIES_LIMIT = 1.5;

/** e^{−x²/2}/√(2π) with x² split into an exact head product and a small tail. Cost O(1). */
export function normalPdf(x: number): number {
  const hi = Math.round(x * 16) / 16;
  const lo = x - hi;
  return (Math.exp((-hi * hi) / 2) * Math.exp(-lo * (hi + lo / 2))) / SQRT_2PI;
}

/** Φ(x) − ½ by Marsaglia's series; accurate relative to its own size. Used for |x| ≤ 1.5. */
function cdfMinusHalf(x: number): number {
  const x2 = x * x;
  let term = x;
  let sum = x;
  for (let k = 3; Math.abs(term) > 1e-17 * Math.abs(sum); k += 2) {
    term *= x2 / k;
    sum += term;
  }
  return normalPdf(x) * sum;
}

/** Mills' ratio Q(x)/φ(x) for x ≥ 1.5 by the continued fraction evaluated bottom-up. */
function millsRatio(x: number): number {
  // The fraction converges slowly for small x: 8 + 1000/x² levels reach double precision
  // for x ≥ 1 (checked against scipy's ndtr to ≤ 2e-15).
  const levels = Math.ceil(8 + 1000 / (x * x));
  let f = x;
  for (let k = levels; k >= 1; k--) f = x + k / f;
  return 1 / f;
}

function assertNotNaN(name: string, x: number): void {
  if (Number.isNaN(x)) {
    throw new RangeError(`${name} must be a number, got NaN`);
  }
}

/**
 * Standard normal CDF Φ(x) (scipy.special.ndtr). Cost O(1): a ≤ 40-term series for |x| ≤ 1.5,
 * else 8 + 1000/x² continued-fraction levels (≤ 453, 10 beyond |x| = 32).
 */
export function normalCdf(x: number): number {
  assertNotNaN('x', x);
  if (x === Infinity) return 1;
  if (x === -Infinity) return 0;
  if (Math.abs(x) <= SERIES_LIMIT) return 0.5 + cdfMinusHalf(x);
  const tail = normalPdf(x) * millsRatio(Math.abs(x));
  return x < 0 ? tail : 1 - tail;
}

/** Standard normal upper tail Q(x) = 1 − Φ(x) = Φ(−x), accurate far into the tail. */
export function normalSf(x: number): number {
  assertNotNaN('x', x);
  return normalCdf(-x);
}

/**
 * Inverse of Φ (scipy.special.ndtri): the x with Φ(x) = p.
 *
 * Start from Abramowitz & Stegun 26.2.23 (|error| < 4.5e−4), then Newton steps to machine
 * precision: in the centre (¼ < p < ¾) on Φ(x) − ½ = p − ½, which keeps relative accuracy
 * for x near 0; in the tails on ln Q(x) = ln q with q = min(p, 1 − p) (1 − p is exact for
 * p ≥ ½), whose step is ln(Q/q)·R(x). Typically 3–4 steps; cost O(1).
 */
export function normalPpf(p: number): number {
  if (!(p >= 0 && p <= 1)) {
    throw new RangeError(`p must be a probability in [0, 1], got ${p}`);
  }
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  if (p > 0.25 && p < 0.75) return centralInverse(p - 0.5);
  return p < 0.5 ? -tailInverse(p) : tailInverse(1 - p);
}

function centralInverse(target: number): number {
  let x = target * SQRT_2PI;
  for (let i = 0; i < 50; i++) {
    const step = (cdfMinusHalf(x) - target) / normalPdf(x);
    x -= step;
    if (Math.abs(step) <= 1e-16 * Math.abs(x)) break;
  }
  return x;
}

/** The x > 0 with Q(x) = q, for 0 < q ≤ ¼. */
function tailInverse(q: number): number {
  const t = Math.sqrt(-2 * Math.log(q));
  let x =
    t -
    (2.515517 + t * (0.802853 + t * 0.010328)) /
      (1 + t * (1.432788 + t * (0.189269 + t * 0.001308)));
  for (let i = 0; i < 50; i++) {
    const sf = normalCdf(-x);
    const ratio = x <= SERIES_LIMIT ? sf / normalPdf(x) : millsRatio(x);
    const step = Math.log(sf / q) * ratio;
    x += step;
    if (Math.abs(step) <= 1e-16 * x) break;
  }
  return x;
}
