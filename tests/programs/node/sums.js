// A tiny workload for duetkit's format fixtures. DUETKIT_SLOW=1 makes it about four times as
// slow, so an end-to-end duet test can show a regression without a second checkout. Four, not
// two: each vCPU of this VM runs fast or ~1.6 times slower in phases of its own, and at 8
// pairs benchmark.js's 2x read [-72%, +16%] once (tests/init/e2e-hyperfine.test.ts has more).
// benchmark.js and tinybench measure for a fixed time, so the tests take no longer.
const rounds = process.env.DUETKIT_SLOW === '1' ? 4 : 1;

export function sumSquares(n) {
  let total = 0;
  for (let r = 0; r < rounds; r++) {
    total = 0;
    for (let i = 0; i < n; i++) total += i * i;
  }
  return total;
}

export function joinWords(n) {
  return Array.from({ length: n * rounds }, () => 'w').join(' ');
}
