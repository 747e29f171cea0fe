// The quickstart's example program, "after" version: `checksum` makes 6% more passes over
// its data, the regression duetkit should catch. `sort` is unchanged. It times both pieces of
// work itself and prints one JSON line per benchmark (duetkit's jsonl format).
import { performance } from 'node:perf_hooks';

// How many passes `checksum` makes over the data: 6% more than base/bench.js (250).
const PASSES = 265;

function makeData(n) {
  const data = new Uint32Array(n);
  let x = 2463534242;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    data[i] = x >>> 0;
  }
  return data;
}

function checksum(data) {
  let h = 0;
  for (let pass = 0; pass < PASSES; pass++) {
    for (let i = 0; i < data.length; i++) h = (Math.imul(h, 31) + data[i]) | 0;
  }
  return h;
}

function sortCopy(data) {
  return data.slice().sort()[data.length >> 1];
}

function time(name, fn) {
  const start = performance.now();
  const result = fn();
  const ms = performance.now() - start;
  console.log(JSON.stringify({ name, value: ms, unit: 'ms', biggerIsBetter: false }));
  return result;
}

// The benchmarks, run in this order; `node bench.js checksum` runs only the ones named (the
// scenario's benchmarkCommand: duetkit profiles each benchmark in a process of its own).
const BENCHMARKS = { checksum, sort: sortCopy };
const names = process.argv.length > 2 ? process.argv.slice(2) : Object.keys(BENCHMARKS);
const unknown = names.filter((name) => !Object.hasOwn(BENCHMARKS, name));
if (unknown.length > 0) {
  console.error(
    `bench.js: no benchmark ${unknown.join(', ')} (there are: ${Object.keys(BENCHMARKS).join(', ')})`,
  );
  process.exit(2);
}

const data = makeData(200_000);
// Let the JIT compile the loops before timing them.
for (const name of names) BENCHMARKS[name](data.subarray(0, 1000));
for (const name of names) time(name, () => BENCHMARKS[name](data));
