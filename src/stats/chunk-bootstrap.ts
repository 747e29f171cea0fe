import type { Rng } from './rng.js';

/**
 * Counts of one group's chunks (clusters): per chunk, `rows[c][j]` events of row j out of
 * `totals[c]` trials. In a profile a chunk is one profiled process, a row a function and a
 * trial a sample.
 */
export interface ChunkCounts {
  rows: readonly Float64Array[];
  totals: Float64Array;
}

/**
 * Bootstrap standard errors of the differences of ratios of sums between two independent
 * groups, per row j: SE of Σ rows_h[·][j] / Σ totals_h − Σ rows_b[·][j] / Σ totals_b when the
 * chunks of each group are resampled with replacement (the cluster bootstrap, Davison &
 * Hinkley 1997 §3.8). Resampling whole chunks keeps what varies from chunk to chunk (one
 * process's layout, its warm-up), which a binomial model of the samples would take for
 * independent draws. Each group needs at least 2 chunks; a resample whose total is 0 counts
 * its ratio as 0. Cost O(resamples · (chunks_b + chunks_h) · rows).
 */
export function ratioDifferenceStandardErrors(
  base: ChunkCounts,
  head: ChunkCounts,
  resamples: number,
  rng: Rng,
): Float64Array {
  for (const [name, g] of [
    ['base', base],
    ['head', head],
  ] as const) {
    if (g.rows.length < 2 || g.rows.length !== g.totals.length) {
      throw new RangeError(
        `${name}: need at least 2 chunks, each with its total; got ${g.rows.length} chunks and ${g.totals.length} totals`,
      );
    }
  }
  if (!(Number.isInteger(resamples) && resamples >= 2)) {
    throw new RangeError(`resamples must be an integer ≥ 2, got ${resamples}`);
  }
  const m = base.rows[0]!.length;
  const sum = new Float64Array(m);
  const sumSquares = new Float64Array(m);
  const rb = new Float64Array(m);
  const rh = new Float64Array(m);
  for (let r = 0; r < resamples; r++) {
    const tb = resampleInto(base, rb, rng);
    const th = resampleInto(head, rh, rng);
    for (let j = 0; j < m; j++) {
      const d = (th > 0 ? rh[j]! / th : 0) - (tb > 0 ? rb[j]! / tb : 0);
      sum[j]! += d;
      sumSquares[j]! += d * d;
    }
  }
  const se = new Float64Array(m);
  for (let j = 0; j < m; j++) {
    const mean = sum[j]! / resamples;
    se[j] = Math.sqrt(Math.max(0, (sumSquares[j]! - resamples * mean * mean) / (resamples - 1)));
  }
  return se;
}

/** Draws the group's chunks with replacement, sums their rows into `out`; returns the total. */
function resampleInto(g: ChunkCounts, out: Float64Array, rng: Rng): number {
  out.fill(0);
  let total = 0;
  const n = g.rows.length;
  for (let i = 0; i < n; i++) {
    const c = rng.nextIndex(n);
    const row = g.rows[c]!;
    for (let j = 0; j < out.length; j++) out[j]! += row[j]!;
    total += g.totals[c]!;
  }
  return total;
}
