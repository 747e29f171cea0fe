import { RESAMPLES_PER_CHUNK } from '../stats/bootstrap.js';
import { finishComparison, planComparison } from '../stats/compare.js';
import type { Comparison, CompareOptions } from '../stats/types.js';
import type { BootstrapPool } from './bootstrap-pool.js';

/**
 * `compare` with the bootstrap spread over the pool's threads. The result is identical to
 * `compare(base, head, options)`; small jobs stay on this thread (a round trip to a worker
 * costs more than it saves).
 */
export async function compareParallel(
  base: readonly number[],
  head: readonly number[],
  options: CompareOptions,
  pool: BootstrapPool,
): Promise<Comparison> {
  const plan = planComparison(base, head, options);
  const b = plan.bootstrap;
  const worthIt =
    b !== null &&
    pool.threads >= 2 &&
    b.resamples >= 2 * RESAMPLES_PER_CHUNK &&
    b.resamples * (base.length + head.length) >= PARALLEL_MIN_DRAWS;
  return finishComparison(plan, worthIt ? await pool.distribution(b) : undefined);
}

/** Below ~2·10⁷ random draws (≈ 0.1 s) a worker's start-up and transfer are not worth it. */
const PARALLEL_MIN_DRAWS = 20_000_000;
