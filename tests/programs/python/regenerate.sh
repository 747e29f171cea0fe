#!/usr/bin/env bash
# Reruns the pytest-benchmark suite and rewrites the `pytest` fixture. Its --benchmark-json
# output always carries every round's timing under stats.data (--benchmark-save-data does the
# same for --benchmark-save files). A short max-time keeps the rounds (and the file) few.
# Needs `pip install -r requirements.txt` (a venv is fine: set PYTHON to its interpreter).
set -euo pipefail
cd "$(dirname "$0")"
py=${PYTHON:-python3}
out=../../fixtures/formats/pytest
mkdir -p "$out"
"$py" -c 'import sys, pytest, pytest_benchmark; print("python", sys.version.split()[0]); print("pytest", pytest.__version__); print("pytest-benchmark", pytest_benchmark.__version__)' > VERSIONS
opts=(-q -p no:cacheprovider --benchmark-min-rounds=5 --benchmark-max-time=0.0005 --benchmark-warmup=off)
"$py" -m pytest "${opts[@]}" --benchmark-json=/tmp/duetkit-pytest.json >/dev/null
sed "s#$PWD#/PROGRAM#g" /tmp/duetkit-pytest.json > "$out/bench.json"
DUETKIT_SLOW=1 "$py" -m pytest "${opts[@]}" --benchmark-json=/tmp/duetkit-pytest.json >/dev/null
sed "s#$PWD#/PROGRAM#g" /tmp/duetkit-pytest.json > "$out/bench-slow.json"
"$py" -m pytest -q -p no:cacheprovider --collect-only > "$out/list.txt"
