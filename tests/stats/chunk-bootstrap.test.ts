import {
  ratioDifferenceStandardErrors,
  type ChunkCounts,
} from '../../src/stats/chunk-bootstrap.js';
import { createRng } from '../../src/stats/rng.js';

/** `chunks` chunks of `n` binomial(p) trials each, one row; `spread` varies p per chunk. */
function group(chunks: number, n: number, p: number, seed: number, spread = 0): ChunkCounts {
  const rng = createRng(seed);
  const rows: Float64Array[] = [];
  for (let c = 0; c < chunks; c++) {
    const q = Math.min(1, p * Math.exp(spread * rng.nextNormal()));
    let k = 0;
    for (let i = 0; i < n; i++) if (rng.nextFloat() < q) k++;
    rows.push(Float64Array.of(k, n - k));
  }
  return { rows, totals: new Float64Array(chunks).fill(n) };
}

describe('ratioDifferenceStandardErrors', () => {
  it('matches the binomial standard error when chunks are independent draws', () => {
    const p = 0.3;
    const se = ratioDifferenceStandardErrors(
      group(40, 500, p, 1),
      group(40, 500, p, 2),
      4000,
      createRng(3),
    );
    const expected = Math.sqrt((2 * p * (1 - p)) / 20_000);
    expect(se[0]! / expected).toBeGreaterThan(0.85);
    expect(se[0]! / expected).toBeLessThan(1.15);
    // the complementary row moves with the first: the same error
    expect(se[1]!).toBeCloseTo(se[0]!, 12);
  });

  it('sees variation between chunks that the binomial model misses', () => {
    const se = ratioDifferenceStandardErrors(
      group(40, 500, 0.3, 1, 0.2),
      group(40, 500, 0.3, 2, 0.2),
      4000,
      createRng(3),
    );
    const binomial = Math.sqrt((2 * 0.3 * 0.7) / 20_000);
    expect(se[0]!).toBeGreaterThan(2 * binomial);
    // the truth: each chunk's share varies by sd 0.3 × 0.2 between chunks, plus its binomial
    // 0.3 × 0.7 / 500; the difference of two means of 40 chunks: sd 0.0142, about 3.1 times
    // the binomial. 40 chunks estimate it to about ±11% (1 sd)
    const truth = Math.sqrt((2 * ((0.3 * 0.2) ** 2 + (0.3 * 0.7) / 500)) / 40);
    expect(se[0]! / truth).toBeGreaterThan(0.65);
    expect(se[0]! / truth).toBeLessThan(1.35);
  });

  it('refuses groups of one chunk and too few resamples, naming them', () => {
    const one = group(1, 10, 0.5, 1);
    expect(() =>
      ratioDifferenceStandardErrors(one, group(3, 10, 0.5, 1), 100, createRng(1)),
    ).toThrow('base: need at least 2 chunks, each with its total; got 1 chunks and 1 totals');
    const two = group(2, 10, 0.5, 1);
    expect(() => ratioDifferenceStandardErrors(two, two, 1, createRng(1))).toThrow(
      'resamples must be an integer ≥ 2, got 1',
    );
  });
});
