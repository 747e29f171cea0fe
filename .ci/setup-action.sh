#!/usr/bin/env bash
# Tools the GitHub Action's tests use that are not npm packages: act (runs the workflows
# locally, in host mode) and actionlint (lints every workflow). Both are Go modules, built
# with `go install` at pinned versions into a cache outside the clone, one directory per
# version ($DUETKIT_TOOLS_CACHE, default ~/.cache/duetkit-tools), and linked into .tools/bin
# (git-ignored), where the tests look. Idempotent: a cached binary is only linked again.
set -euo pipefail
cd "$(dirname "$0")/.."
ACT_VERSION=v0.2.89
ACTIONLINT_VERSION=v1.7.12
# shellcheck source=lib.sh
source .ci/lib.sh # cache (and setup_name, started, say, sudo_)
export GOFLAGS="${GOFLAGS:-} -buildvcs=false"
mkdir -p .tools/bin

command -v go >/dev/null || {
  echo "setup-action: go is not on PATH; act and actionlint are built with it (https://go.dev/doc/install)" >&2
  exit 1
}

# install NAME VERSION PACKAGE [go install flags...]: builds into $cache/NAME-VERSION once.
install() {
  local name=$1 version=$2 package=$3 dir
  shift 3
  dir="$cache/$name-$version"
  if [ ! -x "$dir/$name" ]; then
    mkdir -p "$dir.tmp"
    GOBIN="$dir.tmp" go install "$@" "$package@$version"
    rm -rf "$dir" && mv "$dir.tmp" "$dir"
  fi
  ln -sfn "$dir/$name" ".tools/bin/$name"
}

install act "$ACT_VERSION" github.com/nektos/act
install actionlint "$ACTIONLINT_VERSION" github.com/rhysd/actionlint/cmd/actionlint \
  -ldflags "-X github.com/rhysd/actionlint.version=$ACTIONLINT_VERSION"
echo "  setup-action: act $(.tools/bin/act --version | awk '{print $3}'), actionlint $(.tools/bin/actionlint --version | head -1) in $cache"
