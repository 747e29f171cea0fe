#!/usr/bin/env bash
# Tools the GitHub Action's tests use that are not npm packages: act (runs the workflows
# locally, in host mode) and actionlint (lints every workflow). Both are Go modules, installed
# with `go install` at pinned versions into .tools/bin (git-ignored). Idempotent: a binary that
# already reports the pinned version is kept.
set -euo pipefail
cd "$(dirname "$0")/.."
ACT_VERSION=v0.2.89
ACTIONLINT_VERSION=v1.7.12
export GOBIN="$PWD/.tools/bin"
export GOFLAGS="${GOFLAGS:-} -buildvcs=false"
mkdir -p "$GOBIN"

have() { [ -x "$GOBIN/$1" ] && "$GOBIN/$1" --version 2>/dev/null | grep -q "${2#v}"; }

if have act "$ACT_VERSION"; then
  echo "act $ACT_VERSION already in $GOBIN"
else
  go install "github.com/nektos/act@$ACT_VERSION"
fi
if have actionlint "$ACTIONLINT_VERSION"; then
  echo "actionlint $ACTIONLINT_VERSION already in $GOBIN"
else
  go install -ldflags "-X github.com/rhysd/actionlint.version=$ACTIONLINT_VERSION" \
    "github.com/rhysd/actionlint/cmd/actionlint@$ACTIONLINT_VERSION"
fi
"$GOBIN/act" --version
"$GOBIN/actionlint" --version | head -1
