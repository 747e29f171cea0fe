// A tiny workload for duetkit's format fixtures. DUETKIT_SLOW=1 makes it about twice as slow,
// so an end-to-end duet test can show a regression without a second checkout.
const rounds = process.env.DUETKIT_SLOW === '1' ? 2 : 1;

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
