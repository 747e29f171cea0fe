#!/usr/bin/env bash
# Records the example sample files used by the README's first command: the quickstart's
# `checksum` benchmark (examples/quickstart), base and head run alternately 30 times each on
# one machine, one wall time in ms per line. Rerun to regenerate: bash examples/samples/record.sh
set -euo pipefail
cd "$(dirname "$0")"
q=../quickstart
{
  echo "# examples/quickstart/base checksum, ms, $(date -u +%F), $(nproc) CPUs, node $(node --version)"
} > base.txt
{
  echo "# examples/quickstart/head checksum, ms, $(date -u +%F), $(nproc) CPUs, node $(node --version)"
} > head.txt
for i in $(seq 30); do
  (cd "$q/base" && node bench.js) | sed -n 's/.*"name":"checksum","value":\([0-9.e+-]*\).*/\1/p' >> base.txt
  (cd "$q/head" && node bench.js) | sed -n 's/.*"name":"checksum","value":\([0-9.e+-]*\).*/\1/p' >> head.txt
done
