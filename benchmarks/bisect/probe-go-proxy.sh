#!/usr/bin/env bash
# Which first-parent commits of a Go module does the module proxy serve?
#   probe-go-proxy.sh GIT_DIR MODULE [COUNT] [JOBS] > probe.tsv
# GIT_DIR: a clone or mirror of the module's repository (read only: hashes, dates, subjects);
# MODULE: its module path (the module at the repository's root). Walks the newest COUNT
# first-parent commits of HEAD (default 400), builds each one's pseudo-version
# (v0.0.0-<committer time, UTC, %Y%m%d%H%M%S>-<12 hex of the hash>) and asks the proxy for its
# .info with `go list -m -json MODULE@VERSION` (cheap: no zip), JOBS at a time (default 4), in
# a private module cache under /tmp. Prints one line per commit, newest first:
#   hash <TAB> pseudo-version <TAB> served|refused <TAB> subject
set -euo pipefail
git_dir=$1 module=$2 count=${3:-400} jobs=${4:-4}
cache=$(mktemp -d /tmp/duetkit-probe-go-proxy-XXXXXX)
trap 'chmod -R u+w "$cache" 2>/dev/null; rm -rf "$cache"' EXIT
export GOMODCACHE=$cache/modcache GOPATH=$cache/gopath GOFLAGS=-mod=mod
probe() {
  local hash=$1 version=$2
  if (cd "$cache" && go list -m -json "$MODULE@$version" >/dev/null 2>"$cache/err.$hash"); then
    echo "$hash served"
  else
    echo "$hash refused $(tr '\n' ' ' <"$cache/err.$hash" | cut -c1-200)" >&2
    echo "$hash refused"
  fi
}
export -f probe
export MODULE=$module cache
TZ=UTC git --git-dir="$git_dir" log --first-parent -n "$count" \
  --format='%H%x09v0.0.0-%cd-%h%x09%s' --abbrev=12 --date=format-local:%Y%m%d%H%M%S HEAD \
  >"$cache/commits.tsv"
cut -f1,2 "$cache/commits.tsv" | tr '\t' ' ' |
  xargs -P "$jobs" -n 2 bash -c 'probe "$0" "$1"' >"$cache/status.txt"
while IFS=$'\t' read -r hash version subject; do
  status=$(grep -m1 "^$hash " "$cache/status.txt" | cut -d' ' -f2)
  printf '%s\t%s\t%s\t%s\n' "$hash" "$version" "$status" "$subject"
done <"$cache/commits.tsv"
