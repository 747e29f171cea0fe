// The fidelity benchmark's Node.js program: the same dependent xorshift chain as work.c (on
// 32-bit integers), N steps, so +1% work is 1% more steps (benchmarks/fidelity.ts).
//   node work.mjs N            run once (the command driver times the process)
//   node work.mjs --serve N    the persistent protocol through duetkit/harness, self-timed
const args = process.argv.slice(2);
const serve = args[0] === '--serve';
const n = Number((serve ? args[1] : args[0]) ?? process.env.N);
if (!Number.isSafeInteger(n) || n < 1) {
  console.error('usage: node work.mjs [--serve] N');
  process.exit(2);
}

function chain(steps) {
  let x = 0x2545f491;
  for (let i = 0; i < steps; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
  }
  return x;
}

if (serve) {
  const { serve: serveProtocol } = await import(process.env.DUETKIT_HARNESS);
  let sink = 0;
  await serveProtocol(
    () => {
      sink ^= chain(n);
    },
    { name: 'work' },
  );
  if (sink === 0.5) console.error(sink);
} else {
  console.log(chain(n));
}
