/* global performance, setImmediate */
// A stand-in for a stream processing job (examples/stream): it processes records in a loop and
// prints its throughput once every 100 ms as "TIME VALUE" (seconds since it started, records
// per second). Its first half second is slower, like a JIT warming up or a cache filling; the
// stream driver cuts that warm-up (docs/services.md). This version does 10% more work per record than base/job.mjs.
const WORK = Number(process.env.WORK ?? 220);
const started = performance.now();
let records = 0;
let last = started;
let h = 1;
const stop = () => process.exit(0);
process.on('SIGTERM', stop);
for (;;) {
  const now = performance.now();
  const warm = now - started < 500 ? 3 : 1;
  for (let i = 0; i < WORK * warm; i++) h = Math.imul(h ^ (h >>> 13), 0x5bd1e995) + i;
  records++;
  if (now - last >= 100) {
    console.log(
      `${((now - started) / 1000).toFixed(3)} ${((records * 1000) / (now - last)).toFixed(1)}`,
    );
    records = 0;
    last = now;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
