/*
 * A program with four functions of known shares of the work (benchmarks/explain-programs.ts):
 * parse_records 40%, hash_keys 30%, encode_output 20%, validate 10% — the same loop body
 * (one multiply-add chain, a different odd constant each so that no two are folded together)
 * run 4, 3, 2 and 1 times UNIT steps per round. ENCODE_EXTRA_PERCENT is the constructed
 * slowdown: the head made by the benchmark sets it to 50, so encode_output does 3 units a
 * round instead of 2 (+10% of the whole). Built with gcc -O2 -g -fno-omit-frame-pointer.
 */
#include <stdio.h>
#include <stdlib.h>

#define ENCODE_EXTRA_PERCENT 0
#define UNIT 20000UL

#define LOOP(K)                                                   \
  unsigned long s = seed;                                          \
  for (unsigned long i = 0; i < n; i++) s = s * (K) + (i ^ (s >> 7)); \
  return s;

__attribute__((noinline)) unsigned long parse_records(unsigned long n, unsigned long seed) { LOOP(0x9e3779b1UL) }
__attribute__((noinline)) unsigned long hash_keys(unsigned long n, unsigned long seed) { LOOP(0x85ebca6bUL) }
__attribute__((noinline)) unsigned long encode_output(unsigned long n, unsigned long seed) { LOOP(0xc2b2ae35UL) }
__attribute__((noinline)) unsigned long validate(unsigned long n, unsigned long seed) { LOOP(0x27d4eb2fUL) }

int main(int argc, char **argv) {
  unsigned long rounds = argc > 1 ? strtoul(argv[1], 0, 10) : 1000;
  unsigned long s = 1;
  for (unsigned long r = 0; r < rounds; r++) {
    s = parse_records(4 * UNIT, s);
    s = hash_keys(3 * UNIT, s);
    s = encode_output(2 * UNIT + 2 * UNIT * ENCODE_EXTRA_PERCENT / 100, s);
    s = validate(1 * UNIT, s);
  }
  printf("%lu\n", s);
  return 0;
}
