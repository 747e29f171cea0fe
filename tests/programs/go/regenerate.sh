#!/usr/bin/env bash
# Reruns the Go benchmarks and rewrites the `go` fixtures. Short runs: -benchtime is a fixed
# iteration count and -count 3 gives three samples per benchmark.
set -euo pipefail
cd "$(dirname "$0")"
out=../../fixtures/formats/go
mkdir -p "$out"
go version > VERSIONS
go test -run '^$' -bench . -benchmem -benchtime 2000x -count 3 > "$out/bench.txt"
go test -run '^$' -list '^Benchmark' > "$out/list.txt"
DUETKIT_SLOW=1 go test -run '^$' -bench . -benchmem -benchtime 2000x -count 3 > "$out/bench-slow.txt"
