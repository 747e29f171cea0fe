/**
 * One measurement of each statistics routine per run, printed as duetkit jsonl lines, for the
 * dogfooding workflow (scenarios/dogfood-stats.yml): the paired and unpaired 99% BCa bootstrap
 * of 1,000 values with 2,000 resamples. Each line: {"name", "value" (ms), "unit"}.
 */
import { compare } from '../src/stats/compare.js';
import { createRng } from '../src/stats/rng.js';
import type { CompareOptions } from '../src/stats/types.js';

const rng = createRng(1);
const base: number[] = [];
const head: number[] = [];
for (let i = 0; i < 1000; i++) {
  const common = Math.exp(0.1 * rng.nextNormal());
  base.push(100 * common * Math.exp(0.01 * rng.nextNormal()));
  head.push(101 * common * Math.exp(0.01 * rng.nextNormal()));
}

function time(name: string, options: CompareOptions): void {
  compare(base.slice(0, 100), head.slice(0, 100), options); // warm up the JIT
  const start = process.hrtime.bigint();
  compare(base, head, { ...options, resamples: 2000, seed: 1 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  console.log(JSON.stringify({ name, value: ms, unit: 'ms', biggerIsBetter: false }));
}

time('paired-bootstrap', { paired: true, blockLength: 1 });
time('paired-block-bootstrap', { paired: true });
time('unpaired-bootstrap', {});
