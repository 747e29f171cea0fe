/*
 * memtouch: a constructed workload for duetkit's peak-RSS metric (workload.metric: rss).
 * Touches MEMTOUCH_MIB MiB (default 64) of fresh memory, one write per page, and exits.
 * With MEMTOUCH_PATTERN="64 8 32" it touches the next size of the list on each run instead,
 * counting its runs in the file ./memtouch.count: a test of whether each iteration's value
 * is that iteration's own peak, not the largest so far.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long next_in_pattern(const char *pattern) {
  long runs = 0;
  FILE *f = fopen("memtouch.count", "r");
  if (f != NULL) {
    if (fscanf(f, "%ld", &runs) != 1) runs = 0;
    fclose(f);
  }
  f = fopen("memtouch.count", "w");
  if (f == NULL) return -1;
  fprintf(f, "%ld\n", runs + 1);
  fclose(f);
  long sizes[64];
  int n = 0;
  char *copy = strdup(pattern), *save = NULL;
  for (char *w = strtok_r(copy, " ,", &save); w != NULL && n < 64; w = strtok_r(NULL, " ,", &save))
    sizes[n++] = strtol(w, NULL, 10);
  free(copy);
  return n == 0 ? -1 : sizes[runs % n];
}

int main(void) {
  const char *pattern = getenv("MEMTOUCH_PATTERN");
  const char *fixed = getenv("MEMTOUCH_MIB");
  long mib = pattern != NULL ? next_in_pattern(pattern) : fixed != NULL ? strtol(fixed, NULL, 10) : 64;
  if (mib < 0) {
    fprintf(stderr, "memtouch: bad MEMTOUCH_PATTERN or memtouch.count\n");
    return 2;
  }
  size_t bytes = (size_t)mib << 20;
  volatile unsigned char *p = malloc(bytes == 0 ? 1 : bytes);
  if (p == NULL) {
    fprintf(stderr, "memtouch: cannot allocate %ld MiB\n", mib);
    return 1;
  }
  long page = sysconf(_SC_PAGESIZE);
  for (size_t i = 0; i < bytes; i += (size_t)page) p[i] = (unsigned char)i;
  printf("%ld\n", mib);
  return 0;
}
