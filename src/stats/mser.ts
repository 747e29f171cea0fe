/**
 * MSER-m truncation (White 1997; Franklin & White 2008, "Stationarity tests and MSER-5"): the
 * warm-up of a series is the prefix whose removal minimises the marginal standard error of
 * the rest. The series is cut into batches of `m` (5 by default) and averaged; for each d up
 * to half the batches, MSER(d) = Σ_{i>d} (Y_i − Ȳ_d)² / (k − d)², with Y the batch means and
 * k their number; the prefix is m·d* values for the d* of the smallest MSER. Pure; O(n).
 *
 * Returns how many leading values to drop (0 when the series is too short to tell: fewer than
 * two batches past the cut).
 */
export function mserTruncation(values: readonly number[], batch = 5): number {
  const k = Math.floor(values.length / batch);
  if (k < 4) return 0;
  const means: number[] = [];
  for (let b = 0; b < k; b++) {
    let sum = 0;
    for (let j = 0; j < batch; j++) sum += values[b * batch + j]!;
    means.push(sum / batch);
  }
  // Suffix sums of Y and Y² give every MSER(d) in one pass from the end.
  let sum = 0;
  let squares = 0;
  const score: number[] = new Array<number>(k).fill(Number.POSITIVE_INFINITY);
  for (let d = k - 1; d >= 0; d--) {
    sum += means[d]!;
    squares += means[d]! * means[d]!;
    const n = k - d;
    if (n < 2) continue;
    const sse = squares - (sum * sum) / n;
    score[d] = Math.max(0, sse) / (n * n);
  }
  let best = 0;
  for (let d = 1; d <= Math.floor(k / 2); d++) if (score[d]! < score[best]!) best = d;
  return best * batch;
}
