#!/bin/sh
# A tiny workload for duetkit's hyperfine fixture: a shell loop of $1 steps, twice as many when
# DUETKIT_SLOW=1, so an end-to-end duet test can show a regression.
n=${1:-2000}
[ "${DUETKIT_SLOW:-}" = 1 ] && n=$((n * 2))
i=0
while [ "$i" -lt "$n" ]; do i=$((i + 1)); done
