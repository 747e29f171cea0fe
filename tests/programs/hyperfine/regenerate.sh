#!/usr/bin/env bash
# Reruns hyperfine (Debian's package) on two small shell commands and rewrites the
# `hyperfine` fixtures from its --export-json report; then zero-cpu/, eight exports of `true`
# run without a shell.
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
# Short runs without a shell: the kernel splits a process's CPU time between user and system
# mode by what it samples at its timer tick, so most of these runs get a system time of 0 (and
# a few a user time of 0): "not comparable" in docs/formats.md. tests/cli/not-comparable.test.ts
# replays them and needs at least one 0 and one positive system time among them.
mkdir -p "$out/zero-cpu"
for i in 1 2 3 4 5 6 7 8; do
  hyperfine -N --runs 3 --style none -n true true --export-json "$out/zero-cpu/run-$i.json" > /dev/null
done
