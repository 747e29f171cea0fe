/**
 * Times the bootstrap at the default settings (99% BCa, 10,000 resamples) for paired and
 * unpaired comparisons of 1,000 / 10,000 / 100,000 values per side. Goal: ≤ 0.5 s for the
 * paired CI of 10,000 pairs on a 2-core machine.
 *
 *   npm run bench:stats            # all sizes
 *   npm run bench:stats -- --quick # 1,000 only (smoke test)
 */
import { createBootstrapPool } from '../src/parallel/bootstrap-pool.js';
import { compareParallel } from '../src/parallel/compare-parallel.js';
import { compare } from '../src/stats/compare.js';
import { createRng } from '../src/stats/rng.js';
import type { CompareOptions } from '../src/stats/types.js';

const quick = process.argv.includes('--quick');
const sizes = quick ? [1000] : [1000, 10_000, 100_000];
const repeats = quick ? 1 : 3;
// one run at 100,000 values: the figure is stable and each run takes ~10 s
const repeatsFor = (n: number): number => (n >= 100_000 ? 1 : repeats);

function data(n: number, seed: number): { base: number[]; head: number[] } {
  const rng = createRng(seed);
  const base: number[] = [];
  const head: number[] = [];
  for (let i = 0; i < n; i++) {
    const common = Math.exp(0.1 * rng.nextNormal());
    base.push(100 * common * Math.exp(0.01 * rng.nextNormal()));
    head.push(101 * common * Math.exp(0.01 * rng.nextNormal()));
  }
  return { base, head };
}

const pool = createBootstrapPool();

async function time(
  label: string,
  n: number,
  options: CompareOptions,
  threads: 'one' | 'all',
): Promise<number> {
  const { base, head } = data(n, n);
  const run = (o: CompareOptions) =>
    threads === 'one'
      ? Promise.resolve(compare(base, head, o))
      : compareParallel(base, head, o, pool);
  await run({ ...options, seed: 99 }); // warm up the JIT (and the workers)
  const seconds: number[] = [];
  for (let r = 0; r < repeatsFor(n); r++) {
    const start = process.hrtime.bigint();
    await run({ ...options, seed: r + 1 });
    seconds.push(Number(process.hrtime.bigint() - start) / 1e9);
  }
  seconds.sort((a, b) => a - b);
  const median = seconds[Math.floor(seconds.length / 2)]!;
  console.log(
    `${`${label}, ${threads === 'one' ? '1 thread' : `${pool.threads} threads`}`.padEnd(56)} n=${String(n).padStart(7)}  median ${median.toFixed(3)} s  (min ${seconds[0]!.toFixed(3)}, max ${seconds.at(-1)!.toFixed(3)})`,
  );
  return median;
}

console.log(
  `node ${process.version}, 99% BCa, 10000 resamples, median of ${repeats} runs (1 at 100,000)`,
);
const results: Record<string, number> = {};
for (const n of sizes) {
  for (const threads of ['one', 'all'] as const) {
    const paired = { paired: true, blockLength: 1 };
    results[`paired-${n}-${threads}`] = await time(
      'paired (gmean of ratios, iid pairs)',
      n,
      paired,
      threads,
    );
    await time('paired (gmean of ratios, automatic blocks)', n, { paired: true }, threads);
    await time('paired (median of ratios)', n, { ...paired, statistic: 'median' }, threads);
    await time('unpaired (ratio of medians)', n, {}, threads);
    await time('unpaired (ratio of means)', n, { statistic: 'mean' }, threads);
  }
}
await pool.close();
if (!quick) {
  const all = results['paired-10000-all']!;
  const one = results['paired-10000-one']!;
  console.log(
    `goal: paired 99% CI of 10,000 pairs ≤ 0.5 s: ${all.toFixed(3)} s with ${pool.threads} threads (${one.toFixed(3)} s with 1): ${all <= 0.5 ? 'met' : 'NOT met'}`,
  );
}
