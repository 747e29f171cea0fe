#!/usr/bin/env bash
# Headless Chromium for the dashboard's browser tests and `npm run bench:dashboard`: Debian's
# `chromium` package (/usr/bin/chromium), driven by playwright-core (an npm devDependency that
# downloads no browser). Never a browser download: only the Debian package. Idempotent: when
# /usr/bin/chromium answers, nothing is installed.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh" # setup_name, started, cache, say, sudo_
sudo_why="installing Debian's chromium needs root"

if ! /usr/bin/chromium --version >/dev/null 2>&1; then
  say 'apt-get install chromium'
  sudo_ apt-get update -qq
  # fonts-dejavu-core: one font family for text, so screenshots look the same on every machine.
  sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    chromium fonts-dejavu-core >/dev/null
fi
say "$(/usr/bin/chromium --version 2>/dev/null | head -1)"
