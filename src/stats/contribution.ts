import { normalPpf } from './normal.js';

/** A quantity's point estimate with the bounds of its interval. */
export interface Bounded {
  estimate: number;
  lower: number;
  upper: number;
}

/** A ratio of positive quantities with its interval at `level`. */
export interface RatioInterval extends Bounded {
  level: number;
}

/**
 * The ratio's interval at another level, taken as normal on the log scale: each half width of
 * log(lower), log(upper) around log(estimate) is scaled by z₁₋α'/₂ / z₁₋α/₂, so an asymmetric
 * interval stays asymmetric. A time ratio's interval (a bootstrap of a ratio of statistics, or
 * the trimmed-t interval of the mean log pair ratio) is close to that shape. Needs
 * 0 < lower ≤ estimate ≤ upper. Cost O(1).
 */
export function rescaleRatioInterval(r: RatioInterval, level: number): RatioInterval {
  if (!(r.lower > 0 && r.lower <= r.estimate && r.estimate <= r.upper && isFinite(r.upper))) {
    throw new RangeError(
      `ratio interval: need 0 < lower ≤ estimate ≤ upper, got ${r.lower} ≤ ${r.estimate} ≤ ${r.upper}`,
    );
  }
  for (const [name, value] of [
    ['level', r.level],
    ['target level', level],
  ] as const) {
    if (!(value > 0 && value < 1)) throw new RangeError(`${name} must be in (0, 1), got ${value}`);
  }
  const scale = normalPpf(1 - (1 - level) / 2) / normalPpf(1 - (1 - r.level) / 2);
  const log = Math.log(r.estimate);
  return {
    estimate: r.estimate,
    lower: Math.exp(log - (log - Math.log(r.lower)) * scale),
    upper: Math.exp(log + (Math.log(r.upper) - log) * scale),
    level,
  };
}

/**
 * The interval of a function's contribution c = r·h − b, from independent intervals of its
 * head share h, its base share b and the time ratio r, all at the level wanted: the MOVER
 * (method of variance estimates recovery; Zou & Donner 2008, "Construction of confidence
 * limits about effect measures: a general approach", Statist. Med. 27:1693) over the
 * first-order expansion r̂·h + ĥ·r − b, each term's variance recovered from its own limits:
 *
 *   lower = ĉ − √((r̂(ĥ − l_h))² + (ĥ(r̂ − l_r))² + (u_b − b̂)²),
 *   upper = ĉ + √((r̂(u_h − ĥ))² + (ĥ(u_r − r̂))² + (b̂ − l_b)²).
 *
 * With r known (l_r = u_r = r̂ = 1) and Wilson intervals of the shares this is Newcombe's
 * hybrid score interval of h − b (src/stats/two-proportions.ts). Cost O(1).
 */
export function contributionInterval(head: Bounded, base: Bounded, ratio: Bounded): Bounded {
  for (const [name, x] of [
    ['head share', head],
    ['base share', base],
    ['time ratio', ratio],
  ] as const) {
    if (!(x.lower <= x.estimate && x.estimate <= x.upper)) {
      throw new RangeError(
        `${name}: need lower ≤ estimate ≤ upper, got ${x.lower} ≤ ${x.estimate} ≤ ${x.upper}`,
      );
    }
  }
  const r = ratio.estimate;
  const h = head.estimate;
  const estimate = r * h - base.estimate;
  return {
    estimate,
    lower:
      estimate -
      Math.hypot(r * (h - head.lower), h * (r - ratio.lower), base.upper - base.estimate),
    upper:
      estimate +
      Math.hypot(r * (head.upper - h), h * (ratio.upper - r), base.estimate - base.lower),
  };
}
