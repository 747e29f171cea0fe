#!/usr/bin/env bash
# Tools the end-to-end format tests (tests/e2e/) run for real: Debian packages for Google
# Benchmark, Catch2, hyperfine and sccache (the cargo init e2e's rustc wrapper); a Python venv
# with pytest-benchmark; the Rust criterion benches, the JMH classes and the C++ programs built
# once; Go's build cache and the Node programs' packages warmed. What takes long to build (the
# venv, the Rust benches, the C++ programs, the Node packages) lives in a
# cache outside the clone, keyed by what it was built from ($DUETKIT_TOOLS_CACHE, default
# ~/.cache/duetkit-tools), linked from where the tests look. Idempotent: a second run only
# checks. Needs the package
# registries (Debian, PyPI, crates.io, Maven Central, npm) and, from the machine image, go,
# cargo, python3, java and mvn (a missing one stops here, by name).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
programs=$repo/tests/programs
# shellcheck source=lib.sh
source .ci/lib.sh # setup_name, started, cache, say, sudo_
sudo_why='installing Debian packages needs root'
mkdir -p "$cache"
# key FILE... : a short hash of the files' contents (and of what else is passed on stdin).
key() { { cat "$@"; cat; } | sha256sum | cut -c1-12; }
# linked LINK TARGET: LINK points to TARGET, unless LINK is already a real directory (a clone
# set up before the cache existed keeps what it built).
linked() { [ -d "$1" ] && [ ! -L "$1" ] || { mkdir -p "$(dirname "$1")" "$2" && ln -sfn "$2" "$1"; }; }

debs=(g++ libbenchmark-dev catch2 hyperfine python3-venv sccache)
missing=()
for deb in "${debs[@]}"; do
  dpkg-query -W -f '${Status}' "$deb" 2>/dev/null | grep -q 'install ok installed' || missing+=("$deb")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "apt-get install ${missing[*]}"
  sudo_ apt-get update -qq
  sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# perf, for the profiler tests (tests/profile/): Debian's linux-perf; Ubuntu (GitHub's runners)
# ships it per kernel in linux-tools-$(uname -r).
if ! perf --version >/dev/null 2>&1; then
  if grep -q '^ID=ubuntu' /etc/os-release 2>/dev/null; then
    perf_debs=(linux-tools-common "linux-tools-$(uname -r)")
  else
    perf_debs=(linux-perf)
  fi
  say "apt-get install ${perf_debs[*]}"
  sudo_ apt-get update -qq
  sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${perf_debs[@]}" >/dev/null
  perf --version >/dev/null || {
    echo "setup-formats: perf does not run after installing ${perf_debs[*]}" >&2
    exit 1
  }
fi

for tool in go cargo python3 java mvn node; do
  command -v "$tool" >/dev/null || {
    echo "setup-formats: $tool is not on PATH; the end-to-end format tests need it (see tests/programs/*/VERSIONS)" >&2
    exit 1
  }
done

# Python: pytest-benchmark (and py-spy, for tests/profile/) in a venv the tests find at
# .venv/formats (ignored by git), keyed by the pinned requirements.
venv=$cache/venv-formats-$(python3 --version | key "$programs/python/requirements.txt")
if ! "$venv/bin/python" -c 'import pytest_benchmark' 2>/dev/null || ! [ -x "$venv/bin/py-spy" ]; then
  say "venv $venv with pytest-benchmark"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check -r "$programs/python/requirements.txt"
fi
linked "$repo/.venv/formats" "$venv"

# C++: the Google Benchmark and Catch2 programs (~25 s to build), in the cache keyed by their
# sources, the compiler and the two libraries' versions.
say 'C++ programs'
cpp=$programs/cpp
linked "$cpp/build" "$cache/cpp-programs-$({ g++ --version; dpkg-query -W libbenchmark-dev catch2; } |
  key "$cpp/gbench.cpp" "$cpp/catch2.cpp" "$cpp/sums.hpp")"
# built BINARY SOURCE: in the keyed cache, being there is enough; in a directory of the clone
# (set up before the cache existed), it must be newer than its sources.
built() { [ -x "$1" ] && { [ -L "$cpp/build" ] || { [ "$1" -nt "$cpp/$2" ] && [ "$1" -nt "$cpp/sums.hpp" ]; }; }; }
built "$cpp/build/gbench" gbench.cpp ||
  g++ -O2 -std=c++17 "$cpp/gbench.cpp" -o "$cpp/build/gbench" -lbenchmark -lpthread
built "$cpp/build/catch2" catch2.cpp ||
  g++ -O2 -std=c++17 "$cpp/catch2.cpp" -o "$cpp/build/catch2"

# Go: no dependencies; compiling the test binary once fills the build cache.
say 'Go build cache'
(cd "$programs/go" && go mod download && go test -run '^$' -list '^Benchmark' >/dev/null)
# A real 100-benchmark suite for tests/e2e/go-large-suite.test.ts: valyala/fastjson through the
# Go module proxy into Go's module cache (outside the clone), its test binary built once.
say 'Go: github.com/valyala/fastjson@v1.6.10 (module proxy)'
fastjson=$(go mod download -json github.com/valyala/fastjson@v1.6.10 | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
[ -d "$fastjson" ] || { echo "setup-formats: go mod download gave no directory for fastjson" >&2; exit 1; }
(cd "$fastjson" && go test -c -o /dev/null .)

# Rust: criterion from crates.io, benches built in release mode (cargo bench reuses them).
say 'Rust criterion benches'
linked "$programs/rust/target" "$cache/cargo-target-$(rustc --version | key "$programs/rust/Cargo.lock")"
(cd "$programs/rust" && cargo build -q --release --benches --locked)

# Java: JMH from Maven Central. Offline first (a warm ~/.m2 needs no network), else online.
say 'JMH classes'
mvn_args=(-q -B -Dstyle.color=never compile dependency:build-classpath -Dmdep.outputFile=target/classpath.txt)
(cd "$programs/java" && { mvn -o "${mvn_args[@]}" >/dev/null 2>&1 || mvn "${mvn_args[@]}"; })

# Node: benchmark.js and tinybench for the node programs (versions pinned in package.json),
# installed in the cache keyed by the package files and node's version, its node_modules
# linked as the programs' node_modules. The link points at a directory named node_modules
# (not at the packages' parent): a package's own require() resolves from its real path, and
# benchmark.js finds lodash and platform only in a node_modules directory above it.
# Its lock file lacks rollup's optional platform packages (vitest's), which `npm ci` refuses;
# then the exact versions of package.json are installed without the lock.
say 'Node packages'
node_dir=$programs/node
node_cache=$cache/node-packages-$(node --version | key "$node_dir/package.json" "$node_dir/package-lock.json")
node_modules=$node_cache/node_modules
if [ ! -d "$node_modules/tinybench" ] || [ ! -d "$node_modules/benchmark" ]; then
  rm -rf "$node_cache" "$node_cache.tmp" && mkdir -p "$node_cache.tmp"
  cp "$node_dir/package.json" "$node_dir/package-lock.json" "$node_cache.tmp/"
  (cd "$node_cache.tmp" && { npm ci --no-audit --no-fund --silent 2>/dev/null ||
    npm install --no-audit --no-fund --silent --no-save --no-package-lock; })
  mv "$node_cache.tmp" "$node_cache"
fi
linked "$node_dir/node_modules" "$node_modules"
say done
