import type { Rng } from './rng.js';

/**
 * Counts of one group's chunks (clusters): per chunk, `rows[c][j]` events of row j out of
 * `totals[c]` trials. In a profile a chunk is one profiled process, a row a function and a
 * trial a sample.
 */
export interface ChunkCounts {
  rows: readonly Float64Array[];
  totals: Float64Array;
  /** The work each chunk did (iterations, operations); needed only for a ratio from chunks. */
  work?: Float64Array;
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
  return contributionStandardErrors(base, head, { fixed: 1 }, resamples, rng);
}

/**
 * The time ratio r of each resample: `fixed` (measured elsewhere, its own uncertainty joined
 * later), or `fromChunks`: head's samples per unit of work over base's in the resample,
 * (Σ totals_h / Σ work_h) / (Σ totals_b / Σ work_b) × `periodRatio` (head's sampling period
 * over base's), so that the ratio varies with the shares it multiplies.
 */
export type BootstrapRatio = { fixed: number } | { fromChunks: { periodRatio: number } };

/**
 * Bootstrap standard errors of each row's contribution r·h_j − b_j, where h_j and b_j are the
 * ratios of sums Σ rows[·][j] / Σ totals of head and base, when the chunks of each group are
 * resampled with replacement (the cluster bootstrap, as above). With r fixed at 1 it is the
 * standard error of the difference of the ratios. A resample whose total (or work) is 0
 * counts its ratio as 0. Cost O(resamples · (chunks_b + chunks_h) · rows).
 */
export function contributionStandardErrors(
  base: ChunkCounts,
  head: ChunkCounts,
  ratio: BootstrapRatio,
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
    if ('fromChunks' in ratio && g.work?.length !== g.rows.length) {
      throw new RangeError(
        `${name}: a ratio from chunks needs each chunk’s work; got ${g.work?.length ?? 0} for ${g.rows.length} chunks`,
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
    const b = resampleInto(base, rb, rng);
    const h = resampleInto(head, rh, rng);
    const r = 'fixed' in ratio ? ratio.fixed : resampledRatio(b, h, ratio.fromChunks.periodRatio);
    for (let j = 0; j < m; j++) {
      const d = r * (h.total > 0 ? rh[j]! / h.total : 0) - (b.total > 0 ? rb[j]! / b.total : 0);
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

/** Head's samples per unit of work over base's in one resample. */
function resampledRatio(b: Drawn, h: Drawn, periodRatio: number): number {
  const rate = (g: Drawn): number => (g.work > 0 ? g.total / g.work : 0);
  return rate(b) > 0 ? (rate(h) / rate(b)) * periodRatio : 0;
}

interface Drawn {
  total: number;
  work: number;
}

/**
 * Draws the group's chunks with replacement, sums their rows into `out`; returns the total
 * and the work of the drawn chunks.
 */
function resampleInto(g: ChunkCounts, out: Float64Array, rng: Rng): Drawn {
  out.fill(0);
  let total = 0;
  let work = 0;
  const n = g.rows.length;
  for (let i = 0; i < n; i++) {
    const c = rng.nextIndex(n);
    const row = g.rows[c]!;
    for (let j = 0; j < out.length; j++) out[j]! += row[j]!;
    total += g.totals[c]!;
    work += g.work?.[c] ?? 0;
  }
  return { total, work };
}
