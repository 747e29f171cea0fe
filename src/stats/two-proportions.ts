import { wilsonInterval } from './proportion.js';

/** The difference p₁ − p₂ of two independent binomial proportions with its interval. */
export interface ProportionDifference {
  /** k₁/n₁ − k₂/n₂. */
  estimate: number;
  lower: number;
  upper: number;
  level: number;
  method: 'newcombe';
}

/**
 * Newcombe's hybrid score interval for the difference of two independent proportions
 * (Newcombe 1998, "Interval estimation for the difference between independent proportions",
 * method 10; statsmodels' `confint_proportions_2indep(method="newcomb", compare="diff")`).
 * With (l₁, u₁) and (l₂, u₂) the Wilson intervals of p̂₁ = k₁/n₁ and p̂₂ = k₂/n₂ at `level`
 * and δ = p̂₁ − p̂₂:
 *
 *   lower = δ − √((p̂₁ − l₁)² + (u₂ − p̂₂)²),
 *   upper = δ + √((u₁ − p̂₁)² + (p̂₂ − l₂)²).
 *
 * Unlike the Wald interval it keeps its coverage near 0 and 1 — where most functions' shares
 * of a profile sit — and never leaves [−1, 1]. Both sides need at least one trial. Cost O(1).
 */
export function newcombeInterval(
  successes1: number,
  trials1: number,
  successes2: number,
  trials2: number,
  level = 0.95,
): ProportionDifference {
  if (trials1 < 1 || trials2 < 1) {
    throw new RangeError(
      `both proportions need at least one trial, got trials ${trials1} and ${trials2}`,
    );
  }
  const a = wilsonInterval(successes1, trials1, level);
  const b = wilsonInterval(successes2, trials2, level);
  const delta = a.estimate - b.estimate;
  return {
    estimate: delta,
    lower: delta - Math.hypot(a.estimate - a.lower, b.upper - b.estimate),
    upper: delta + Math.hypot(a.upper - a.estimate, b.estimate - b.lower),
    level,
    method: 'newcombe',
  };
}
