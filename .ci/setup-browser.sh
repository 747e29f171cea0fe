#!/usr/bin/env bash
# Headless Chromium for the dashboard's browser tests and `npm run bench:dashboard`: Debian's
# `chromium` package (/usr/bin/chromium), driven by playwright-core (an npm devDependency that
# downloads no browser). Never a browser download: only the Debian package. Idempotent: when
# /usr/bin/chromium answers, nothing is installed.
set -euo pipefail
started=$(date +%s)
say() { printf '  setup-browser: %s (%ss)\n' "$1" "$(($(date +%s) - started))"; }

sudo_() {
  if [ "$(id -u)" = 0 ]; then
    "$@"
  elif sudo -n true 2>/dev/null; then
    sudo -n "$@"
  else
    echo "setup-browser: installing Debian's chromium needs root; run as root: $*" >&2
    exit 1
  fi
}

if ! /usr/bin/chromium --version >/dev/null 2>&1; then
  say 'apt-get install chromium'
  sudo_ apt-get update -qq
  # fonts-dejavu-core: one font family for text, so screenshots look the same on every machine.
  sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    chromium fonts-dejavu-core >/dev/null
fi
say "$(/usr/bin/chromium --version 2>/dev/null | head -1)"
