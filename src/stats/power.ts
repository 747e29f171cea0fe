import { normalPpf } from './normal.js';

export interface PowerOptions {
  /** Confidence level 1 − α (two-sided). Default 0.99. */
  level?: number;
  /** Power 1 − β. Default 0.8. */
  power?: number;
  /**
   * Paired data: `cv` is then the standard deviation of the log pair ratios and the one-sample
   * formula applies (no factor 2). Default false.
   */
  paired?: boolean;
}

function zSum(options: PowerOptions): number {
  const level = options.level ?? 0.99;
  const power = options.power ?? 0.8;
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1), got ${level}`);
  if (!(power > 0 && power < 1)) throw new RangeError(`power must be in (0, 1), got ${power}`);
  return normalPpf(1 - (1 - level) / 2) + normalPpf(power);
}

/**
 * Samples per side needed to detect a relative change with the given power:
 * n = 2·((z₁₋α/₂ + z₁₋β)/d)², d = change / CV (normal approximation, two-sample); paired:
 * n = ((z₁₋α/₂ + z₁₋β)/d)² pairs. Rounded up; Infinity for a zero change.
 */
export function requiredSampleSize(change: number, cv: number, options: PowerOptions = {}): number {
  if (!(cv >= 0)) throw new RangeError(`cv must be ≥ 0, got ${cv}`);
  const z = zSum(options);
  if (change === 0) return cv === 0 ? 2 : Infinity;
  const d = Math.abs(change) / cv;
  const factor = options.paired === true ? 1 : 2;
  return Math.max(2, Math.ceil(factor * (z / d) ** 2));
}

/**
 * Minimum detectable effect: the relative change that n samples per side (pairs when paired)
 * detect with the given power — the formula above solved for the change:
 * MDE = CV·(z₁₋α/₂ + z₁₋β)·√(2/n) (paired: √(1/n)).
 */
export function minimumDetectableEffect(n: number, cv: number, options: PowerOptions = {}): number {
  if (!(n >= 1)) throw new RangeError(`n must be ≥ 1, got ${n}`);
  if (!(cv >= 0)) throw new RangeError(`cv must be ≥ 0, got ${cv}`);
  const factor = options.paired === true ? 1 : 2;
  return cv * zSum(options) * Math.sqrt(factor / n);
}
