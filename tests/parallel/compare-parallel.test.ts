import { createBootstrapPool, type BootstrapPool } from '../../src/parallel/bootstrap-pool.js';
import { compareParallel } from '../../src/parallel/compare-parallel.js';
import { compare } from '../../src/stats/compare.js';
import { createRng } from '../../src/stats/rng.js';

function data(n: number, seed: number): { base: number[]; head: number[] } {
  const rng = createRng(seed);
  const base = Array.from({ length: n }, () => 100 * Math.exp(0.1 * rng.nextNormal()));
  const head = base.map((b) => b * 1.01 * Math.exp(0.01 * rng.nextNormal()));
  return { base, head };
}

describe('parallel bootstrap', () => {
  let pool: BootstrapPool;
  beforeAll(() => (pool = createBootstrapPool(2)));
  afterAll(() => pool.close());

  it('gives exactly the single-threaded comparison, paired and unpaired', async () => {
    const { base, head } = data(1200, 1);
    for (const options of [
      { paired: true, seed: 9 },
      { paired: false, seed: 9, resamples: 8_500 },
      { paired: true, statistic: 'median' as const, blockLength: 3, seed: 2 },
    ]) {
      const parallel = await compareParallel(base, head, options, pool);
      expect(parallel).toEqual(compare(base, head, options));
    }
  });

  it('keeps small jobs on this thread and handles the degenerate case', async () => {
    const small = await compareParallel([1, 2, 3], [2, 3, 4], { seed: 1 }, pool);
    expect(small).toEqual(compare([1, 2, 3], [2, 3, 4], { seed: 1 }));
    const same = await compareParallel([5, 5], [5, 5, 5], {}, pool);
    expect(same.verdict).toBe('unchanged');
  });

  it('a one-thread pool computes everything here', async () => {
    const single = createBootstrapPool(1);
    const { base, head } = data(1200, 2);
    const plan = {
      design: 'paired' as const,
      base,
      head,
      statistic: 'gmean' as const,
      resamples: 3000,
      seed: 4,
      blockLength: 1,
    };
    const a = await single.distribution(plan);
    const b = await pool.distribution(plan);
    expect(a).toEqual(b);
    await single.close();
  });
});
