import type { Rng } from './rng.js';

/**
 * Index resampling schemes. Each fills `out` (length n) with indices into 0..n−1 and costs
 * O(n) draws from the seeded generator.
 */

/** Independent draws with replacement (Efron's bootstrap). */
export function drawIid(n: number, out: Int32Array, rng: Rng): void {
  for (let i = 0; i < n; i++) out[i] = rng.nextIndex(n);
}

/**
 * Moving-block bootstrap (Künsch 1989): concatenate blocks of `blockLength` consecutive
 * indices, each starting uniformly in 0..n−blockLength, truncated to n. Keeps the
 * dependence within a block, so autocorrelated series are not treated as iid.
 */
export function drawMovingBlocks(n: number, blockLength: number, out: Int32Array, rng: Rng): void {
  if (blockLength <= 1) {
    drawIid(n, out, rng);
    return;
  }
  const starts = n - blockLength + 1;
  let filled = 0;
  while (filled < n) {
    const start = rng.nextIndex(starts);
    const take = Math.min(blockLength, n - filled);
    for (let j = 0; j < take; j++) out[filled++] = start + j;
  }
}
