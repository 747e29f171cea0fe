import { normalPpf } from './normal.js';

/** A binomial proportion with its confidence interval (plain JSON). */
export interface ProportionInterval {
  successes: number;
  trials: number;
  /** successes / trials; NaN when there were no trials. */
  estimate: number;
  lower: number;
  upper: number;
  level: number;
  method: 'wilson';
}

/**
 * Wilson score interval for a binomial proportion (Wilson 1927; the same as statsmodels'
 * `proportion_confint(method="wilson")`). With p̂ = k/n and z = z₁₋α/₂:
 *
 *   centre = (p̂ + z²/(2n)) / (1 + z²/n),
 *   half   = z·√(p̂(1 − p̂)/n + z²/(4n²)) / (1 + z²/n),
 *
 * clipped to [0, 1]. Unlike the Wald interval it stays informative at 0 or n successes,
 * which is where a false-positive rate usually sits (0 of 20 A/A runs → upper ≈ 0.16 at 95%).
 * With no trials the interval is the whole of [0, 1]. Cost O(1).
 */
export function wilsonInterval(
  successes: number,
  trials: number,
  level = 0.95,
): ProportionInterval {
  if (!(Number.isInteger(trials) && trials >= 0)) {
    throw new RangeError(`trials must be an integer ≥ 0, got ${trials}`);
  }
  if (!(Number.isInteger(successes) && successes >= 0 && successes <= trials)) {
    throw new RangeError(
      `successes must be an integer from 0 to trials (${trials}), got ${successes}`,
    );
  }
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1), got ${level}`);
  if (trials === 0) {
    return { successes, trials, estimate: NaN, lower: 0, upper: 1, level, method: 'wilson' };
  }
  const z = normalPpf(1 - (1 - level) / 2);
  const n = trials;
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  return {
    successes,
    trials,
    estimate: p,
    // At 0 (or n) successes the bound is exactly 0 (or 1); rounding must not move it.
    lower: successes === 0 ? 0 : Math.max(0, centre - half),
    upper: successes === n ? 1 : Math.min(1, centre + half),
    level,
    method: 'wilson',
  };
}
