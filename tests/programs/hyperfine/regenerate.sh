#!/usr/bin/env bash
# Reruns hyperfine (Debian's package) on two small shell commands and rewrites the
# `hyperfine` fixtures from its --export-json report.
set -euo pipefail
cd "$(dirname "$0")"
hyperfine --version > VERSIONS
out=../../fixtures/formats/hyperfine
mkdir -p "$out"
opts=(--runs 10 --warmup 1 --style none -n loop-2000 'sh work.sh 2000' -n loop-8000 'sh work.sh 8000')
hyperfine "${opts[@]}" --export-json /tmp/duetkit-hyperfine.json > /dev/null
cp /tmp/duetkit-hyperfine.json "$out/bench.json"
DUETKIT_SLOW=1 hyperfine "${opts[@]}" --export-json /tmp/duetkit-hyperfine.json > /dev/null
cp /tmp/duetkit-hyperfine.json "$out/bench-slow.json"
