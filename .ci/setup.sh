#!/usr/bin/env bash
# Installs the tools the tests run that are not npm packages (act, actionlint, hyperfine,
# Google Benchmark, pytest-benchmark, criterion, JMH...): every .ci/setup-*.sh, each pinned
# and idempotent, with what takes long cached outside the clone, keyed by version
# ($DUETKIT_TOOLS_CACHE, default ~/.cache/duetkit-tools). `npm run test:all` runs it first:
# minutes on a fresh machine, seconds after that. `npm run setup` runs it alone.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
for setup in .ci/setup-*.sh; do
  bash "$setup" || {
    echo "setup: $setup failed (see above); the tests need what it installs. Run it again with: bash $setup" >&2
    exit 1
  }
done
echo "setup: the test tools are ready ($(($(date +%s) - started)) s)"
