// A program that measures itself and prints github-action-benchmark's custom JSON, the way
// teams using `customSmallerIsBetter` / `customBiggerIsBetter` do. The argument picks which.
import { joinWords, sumSquares } from './sums.js';

function time(fn, reps) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < reps; i++) fn();
  return Number(process.hrtime.bigint() - start) / reps;
}

const bigger = process.argv[2] === 'bigger';
const results = [
  ['sumSquares(1000)', time(() => sumSquares(1000), 2000)],
  ['joinWords(64)', time(() => joinWords(64), 2000)],
].map(([name, ns]) =>
  bigger
    ? { name, unit: 'ops/s', value: Math.round(1e9 / ns), extra: '2000 calls' }
    : { name, unit: 'ns', value: Math.round(ns), range: '± 0', extra: '2000 calls' },
);
console.log(JSON.stringify(results, null, 2));
