#!/usr/bin/env bash
# k6 (Grafana's load tester), for `format: k6`, the k6 driver and the agreement test of the
# http driver against k6. A Go module, built with `go install go.k6.io/k6@<pinned>` into a
# cache outside the clone, one directory per version ($DUETKIT_TOOLS_CACHE, default
# ~/.cache/duetkit-tools/k6-<version>), and linked into .tools/bin (git-ignored), where the
# tests look. Idempotent: a cached binary is only linked again. duetkit always runs k6 with
# --no-usage-report (and K6_NO_USAGE_REPORT=true), so it never phones home.
set -euo pipefail
cd "$(dirname "$0")/.."
K6_VERSION=v1.8.1
# shellcheck source=lib.sh
source .ci/lib.sh # cache (and setup_name, started, say, sudo_)
export GOFLAGS="${GOFLAGS:-} -buildvcs=false"
mkdir -p .tools/bin

command -v go >/dev/null || {
  echo "setup-k6: go is not on PATH; k6 is built with it (https://go.dev/doc/install)" >&2
  exit 1
}

dir="$cache/k6-$K6_VERSION"
if [ ! -x "$dir/k6" ]; then
  started=$(date +%s)
  mkdir -p "$dir.tmp"
  GOBIN="$dir.tmp" go install "go.k6.io/k6@$K6_VERSION"
  rm -rf "$dir" && mv "$dir.tmp" "$dir"
  echo "  setup-k6: built k6 $K6_VERSION in $(($(date +%s) - started)) s"
fi
ln -sfn "$dir/k6" .tools/bin/k6
echo "  setup-k6: k6 $("$dir/k6" version | head -1 | awk '{print $2}') in $dir"
