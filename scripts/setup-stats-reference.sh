#!/usr/bin/env bash
# The Python references that the statistics' fixture vectors are made with (not needed by the
# tests, which read the committed vectors): scipy/statsmodels/scikit-posthocs for the tests,
# apache-otava and MongoDB's signal-processing-algorithms for the change points. Their numpy
# pins conflict (otava: numpy 2.2; signal-processing-algorithms: numpy < 2), so there are three
# virtualenvs, cached outside the clone keyed by this file and the Python version
# ($DUETKIT_TOOLS_CACHE, default ~/.cache/duetkit-tools). Idempotent; prints the directory.
#
#   dir=$(bash scripts/setup-stats-reference.sh)
#   "$dir/scipy/bin/python" tests/fixtures/scipy/make_variability.py
#   "$dir/otava/bin/python" tests/fixtures/changepoint/make_changepoint.py
set -euo pipefail
cd "$(dirname "$0")/.."
cache=${DUETKIT_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/duetkit-tools}
key=$({ python3 --version; cat "$0"; } | sha256sum | cut -c1-12)
dir=$cache/stats-reference-$key
mkdir -p "$dir"

venv() { # NAME IMPORT PACKAGE...
  local name=$1 probe=$2
  shift 2
  if ! "$dir/$name/bin/python" -c "import $probe" 2>/dev/null; then
    rm -rf "$dir/$name"
    python3 -m venv "$dir/$name" >&2
    "$dir/$name/bin/pip" install -q --disable-pip-version-check "$@" >&2
  fi
}

venv scipy 'scipy, statsmodels, scikit_posthocs' numpy==2.4.6 scipy==1.17.1 statsmodels==0.15.0 scikit-posthocs==0.17.1
venv otava 'otava.analysis' apache-otava==0.8.0
venv spa 'signal_processing_algorithms.energy_statistics.energy_statistics' signal-processing-algorithms==2.1.6
echo "$dir"
