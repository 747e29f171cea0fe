/**
 * Multiple-comparison adjustment of a family of p-values. Many benchmarks in one run are many
 * tests; without adjustment one of twenty unchanged benchmarks is "significant" at 5% by chance.
 */

/**
 * Holm (1979) step-down adjustment, controlling the family-wise error rate:
 * with p₍₁₎ ≤ … ≤ p₍ₘ₎, p̃₍ᵢ₎ = min(1, max_{j≤i} (m − j + 1) p₍ⱼ₎). O(m log m).
 */
export function holm(pValues: readonly number[]): number[] {
  checkPValues(pValues);
  const m = pValues.length;
  const order = rankOrder(pValues);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach((index, i) => {
    running = Math.max(running, Math.min(1, (m - i) * pValues[index]!));
    adjusted[index] = running;
  });
  return adjusted;
}

/**
 * Benjamini & Hochberg (1995) step-up adjustment, controlling the false discovery rate:
 * p̃₍ᵢ₎ = min(1, min_{j≥i} m p₍ⱼ₎ / j). O(m log m).
 */
export function benjaminiHochberg(pValues: readonly number[]): number[] {
  checkPValues(pValues);
  const m = pValues.length;
  const order = rankOrder(pValues);
  const adjusted = new Array<number>(m);
  let running = 1;
  for (let i = m - 1; i >= 0; i--) {
    const index = order[i]!;
    running = Math.min(running, (m * pValues[index]!) / (i + 1));
    adjusted[index] = Math.min(1, running);
  }
  return adjusted;
}

/** Applies the named adjustment; `none` returns the p-values unchanged. */
export function adjustPValues(
  pValues: readonly number[],
  method: 'holm' | 'bh' | 'none',
): number[] {
  if (method === 'holm') return holm(pValues);
  if (method === 'bh') return benjaminiHochberg(pValues);
  checkPValues(pValues);
  return [...pValues];
}

/** Indices sorted by ascending p (stable). */
function rankOrder(pValues: readonly number[]): number[] {
  return pValues.map((_, i) => i).sort((a, b) => pValues[a]! - pValues[b]! || a - b);
}

function checkPValues(pValues: readonly number[]): void {
  pValues.forEach((p, i) => {
    if (!(p >= 0 && p <= 1)) {
      throw new RangeError(`p-value #${i + 1} is ${p}; p-values must be in [0, 1]`);
    }
  });
}
