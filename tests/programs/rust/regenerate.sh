#!/usr/bin/env bash
# Reruns the criterion benchmarks and rewrites the `criterion` fixture (stdout plus the JSON
# files criterion writes under target/criterion) and the `cargo` fixture (criterion's
# libtest-compatible "bencher" output, the format github-action-benchmark's `cargo` reads).
set -euo pipefail
cd "$(dirname "$0")"
crit=../../fixtures/formats/criterion
cargo_out=../../fixtures/formats/cargo
mkdir -p "$crit" "$cargo_out"
{ cargo --version; rustc --version; grep -A1 '^name = "criterion"$' Cargo.lock; } > VERSIONS
rm -rf target/criterion
cargo bench --bench sums -- --noplot > "$crit/stdout.txt"
rm -rf "$crit/target"
# Only what duetkit reads: each benchmark's latest run (new/), not the HTML report.
(cd target && find criterion -path '*/new/*.json' -print0 | xargs -0 -I{} install -D -m 644 {} "../$crit/target/{}")
cargo bench --bench sums -- --list > "$cargo_out/list.txt"
cargo bench --bench sums -- --noplot --output-format bencher > "$cargo_out/bench.txt"
DUETKIT_SLOW=1 cargo bench --bench sums -- --noplot --output-format bencher > "$cargo_out/bench-slow.txt"
