#!/bin/sh
# A tiny workload for duetkit's hyperfine fixture: a shell loop of $1 steps, four times as many
# when DUETKIT_SLOW=1, so an end-to-end duet test can show a regression (four, not two: why in
# tests/init/e2e-hyperfine.test.ts).
n=${1:-2000}
[ "${DUETKIT_SLOW:-}" = 1 ] && n=$((n * 4))
i=0
while [ "$i" -lt "$n" ]; do i=$((i + 1)); done
