/**
 * The body of one noise thread, run with `new Worker(source, { eval: true })`. It is plain
 * JavaScript in a string so that it runs the same from the sources (tsx, jest) and from the
 * bundle, without a separate worker file to locate.
 *
 * Control word (Int32Array over a SharedArrayBuffer, index 0): 0 paused, 1 on, 2 stop.
 * While on, each period of `periodMs` is `load · periodMs` of work measured on the wall clock,
 * then a sleep for the rest of the period in `Atomics.wait`, which a change of the control
 * word interrupts at once (so stopping never waits for a period to end). Because the busy
 * part ends by the wall clock, a thread that is preempted uses *less* than its share, never
 * more: the cap holds from above.
 * `cpu`: a register-only integer loop. `memory`: reads and writes 8-byte words with a stride
 * of one cache line over a buffer larger than the last-level cache, so every access misses.
 * Counter word (Float64Array index 0): work units done, for tests.
 */
export const NOISE_WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const control = new Int32Array(workerData.control);
const done = new Float64Array(workerData.counters);
const index = workerData.index;
const period = workerData.periodMs;
const busy = workerData.load * period;
const memory = workerData.kind === 'memory';
const words = memory ? new Float64Array(Math.floor(workerData.bufferBytes / 8)) : null;
let position = 0;
let x = 0x9e3779b9 | 0;
function work() {
  if (memory) {
    const n = words.length;
    for (let k = 0; k < 4096; k++) {
      words[position] += 1;
      position += 8;
      if (position >= n) position = 0;
    }
  } else {
    for (let k = 0; k < 4096; k++) x = (Math.imul(x, 1103515245) + 12345) | 0;
  }
  done[index] += 1;
}
for (;;) {
  const state = Atomics.load(control, 0);
  if (state === 2) break;
  if (state === 0) { Atomics.wait(control, 0, 0); continue; }
  const start = performance.now();
  const end = start + busy;
  do work(); while (performance.now() < end);
  const rest = period - (performance.now() - start);
  if (rest > 0 && busy < period) Atomics.wait(control, 0, 1, rest);
}
if (x === 42) console.log('');
`;
