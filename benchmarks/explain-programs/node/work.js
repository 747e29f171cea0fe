// A program with four functions of known shares of the work (benchmarks/explain-programs.ts):
// parseRecords 40%, hashKeys 30%, encodeOutput 20%, validate 10%: the same loop body run 4, 3, 2
// and 1 times UNIT steps per round, interleaved so that the JIT warms them alike.
// ENCODE_EXTRA_PERCENT is the constructed slowdown: the head made by the benchmark sets it to 50,
// so encodeOutput does 3 units a round instead of 2 (+10% of the whole).
const ENCODE_EXTRA_PERCENT = 0;
const UNIT = 20000;

function parseRecords(n, s) {
  for (let i = 0; i < n; i++) s = (Math.imul(s, 40503) + i) | 0;
  return s;
}
function hashKeys(n, s) {
  for (let i = 0; i < n; i++) s = (Math.imul(s, 40507) + i) | 0;
  return s;
}
function encodeOutput(n, s) {
  for (let i = 0; i < n; i++) s = (Math.imul(s, 40529) + i) | 0;
  return s;
}
function validate(n, s) {
  for (let i = 0; i < n; i++) s = (Math.imul(s, 40531) + i) | 0;
  return s;
}

const rounds = Number(process.argv[2] ?? 100);
let s = 1;
for (let r = 0; r < rounds; r++) {
  s = parseRecords(4 * UNIT, s);
  s = hashKeys(3 * UNIT, s);
  s = encodeOutput(2 * UNIT + (2 * UNIT * ENCODE_EXTRA_PERCENT) / 100, s);
  s = validate(1 * UNIT, s);
}
console.log(s);
