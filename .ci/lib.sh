# Sourced by the .ci/setup-*.sh scripts (never run alone): what they share.
#   setup_name  the script's name (setup-formats, ...), the prefix of what it prints
#   started     when it started (seconds), for say
#   cache       the tools cache outside the clone, keyed by version inside
#               ($DUETKIT_TOOLS_CACHE, default ~/.cache/duetkit-tools); not created here
#   say MSG     prints "  <setup_name>: MSG (<seconds since started>s)"
#   sudo_ CMD   runs CMD as root: directly when root, else with `sudo -n`, else stops naming
#               CMD and why it needs root ($sudo_why, set by the script)
setup_name=$(basename "${BASH_SOURCE[1]:-$0}" .sh)
started=$(date +%s)
cache=${DUETKIT_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/duetkit-tools}
sudo_why='this step needs root'

say() { printf '  %s: %s (%ss)\n' "$setup_name" "$1" "$(($(date +%s) - started))"; }

sudo_() {
  if [ "$(id -u)" = 0 ]; then
    "$@"
  elif sudo -n true 2>/dev/null; then
    sudo -n "$@"
  else
    echo "$setup_name: $sudo_why; run as root: $*" >&2
    exit 1
  fi
}
