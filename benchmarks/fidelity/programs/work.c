/*
 * The fidelity benchmark's C program: N steps of a dependent xorshift chain, so the work is
 * exactly proportional to N and +1% work is 1% more steps (benchmarks/fidelity.ts).
 *
 *   work N            run once (the command driver times the process)
 *   work --jsonl N    run once and print its own time: {"name": "work", "value": MS, "unit": "ms"}
 *   work --serve N    the persistent protocol (docs/protocol.md), self-timed {"results": [...]}
 *   work --serve-ok N the persistent protocol, answering {"ok": true} (the harness times it)
 *
 * N may also come from the environment variable N.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t chain(unsigned long n) {
  uint64_t x = 88172645463325252ull;
  for (unsigned long i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
  }
  return x;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static volatile uint64_t sink;

int main(int argc, char **argv) {
  int flagged = argc > 1 && strncmp(argv[1], "--", 2) == 0;
  const char *mode = flagged ? argv[1] : "";
  const char *count = argc > 1 + flagged ? argv[1 + flagged] : getenv("N");
  if (count == NULL) {
    fprintf(stderr, "usage: work [--jsonl|--serve|--serve-ok] N (or N in the environment)\n");
    return 2;
  }
  unsigned long n = strtoul(count, NULL, 10);
  if (strcmp(mode, "--serve") == 0 || strcmp(mode, "--serve-ok") == 0) {
    int ok = strcmp(mode, "--serve-ok") == 0;
    char line[64];
    printf("{\"ready\": true}\n");
    fflush(stdout);
    while (fgets(line, sizeof line, stdin) != NULL) {
      if (strncmp(line, "exit", 4) == 0) return 0;
      double t0 = now_ms();
      sink = chain(n);
      double t1 = now_ms();
      if (ok) printf("{\"ok\": true}\n");
      else printf("{\"results\": [{\"name\": \"work\", \"value\": %.6f, \"unit\": \"ms\"}]}\n", t1 - t0);
      fflush(stdout);
    }
    return 0;
  }
  double t0 = now_ms();
  sink = chain(n);
  double t1 = now_ms();
  if (strcmp(mode, "--jsonl") == 0)
    printf("{\"name\": \"work\", \"value\": %.6f, \"unit\": \"ms\"}\n", t1 - t0);
  else
    printf("%llu\n", (unsigned long long)sink);
  return 0;
}
