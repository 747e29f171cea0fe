#!/usr/bin/env bash
# How long `npm run test:all`'s set-up of the test tools (.ci/setup.sh) takes cold and warm: every
# cache it fills (the tools cache, Go's build and module caches, cargo's registry, Maven's
# repository, pip's and npm's caches) is pointed at an empty directory for the cold run, and
# the same set-up is run again in a clone without build outputs (warm caches, fresh clone),
# and once more as it is. Debian packages are the machine's (they
# cannot be uninstalled for a measurement); the build outputs inside the clone are moved
# aside and put back. Needs the package registries.
#
#   bash benchmarks/setup-time.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cold=$(mktemp -d /tmp/duetkit-setup-cold-XXXXXX)
aside=$cold/aside
mkdir -p "$aside"
inside=(.tools .venv/formats tests/programs/rust/target tests/programs/java/target
  tests/programs/cpp/build tests/programs/node/node_modules)
for p in "${inside[@]}"; do
  if [ -e "$p" ] || [ -L "$p" ]; then mkdir -p "$aside/$(dirname "$p")" && mv "$p" "$aside/$p"; fi
done
restore() {
  for p in "${inside[@]}"; do
    rm -rf "$p"
    if [ -e "$aside/$p" ] || [ -L "$aside/$p" ]; then mv "$aside/$p" "$p"; fi
  done
  rm -rf "$cold"
}
trap restore EXIT
export DUETKIT_TOOLS_CACHE=$cold/tools GOCACHE=$cold/go-build GOMODCACHE=$cold/go-mod \
  CARGO_HOME=$cold/cargo PIP_CACHE_DIR=$cold/pip npm_config_cache=$cold/npm \
  MAVEN_OPTS="-Dmaven.repo.local=$cold/m2"
time_it() {
  local start=$(date +%s)
  bash .ci/setup.sh >"$cold/log" 2>&1 || { cat "$cold/log"; exit 1; }
  echo "$1: $(($(date +%s) - start)) s"
}
time_it cold
# A fresh clone on the same machine: the caches are warm, the clone's own outputs are not.
rm -rf "${inside[@]}"
time_it 'warm (fresh clone)'
time_it 'warm (again)'
