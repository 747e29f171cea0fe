#!/usr/bin/env bash
# Builds the Google Benchmark and Catch2 programs with Debian's libbenchmark-dev and catch2
# packages and rewrites the `googlecpp` and `catch2` fixtures. Short runs on purpose.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p build
g++ -O2 -std=c++17 gbench.cpp -o build/gbench -lbenchmark -lpthread
g++ -O2 -std=c++17 catch2.cpp -o build/catch2
{
  g++ --version | head -1
  echo "libbenchmark-dev $(dpkg-query -W -f '${Version}' libbenchmark-dev)"
  echo "catch2 $(dpkg-query -W -f '${Version}' catch2)"
} > VERSIONS
g=../../fixtures/formats/googlecpp
c=../../fixtures/formats/catch2
mkdir -p "$g" "$c"
gopts=(--benchmark_format=json --benchmark_min_time=0.01 --benchmark_repetitions=5)
# Host-specific context (host name, load) is left as the tool wrote it: nothing reads it.
build/gbench "${gopts[@]}" > "$g/bench.json"
DUETKIT_SLOW=1 build/gbench "${gopts[@]}" > "$g/bench-slow.json"
build/gbench --benchmark_list_tests=true > "$g/list.txt"
copts=(--benchmark-samples 10 --benchmark-resamples 1000 --benchmark-warmup-time 10)
build/catch2 "${copts[@]}" > "$c/bench.txt"
DUETKIT_SLOW=1 build/catch2 "${copts[@]}" > "$c/bench-slow.txt"
