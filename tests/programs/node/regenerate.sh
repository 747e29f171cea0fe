#!/usr/bin/env bash
# Reruns the Node benchmarks and rewrites the `benchmarkjs` and `tinybench` fixtures (tinybench
# task results and vitest bench's --outputJson report). Needs `npm install` here first; vitest
# needs Node >= 20 (set NODE to another binary if the default is older).
set -euo pipefail
cd "$(dirname "$0")"
node_bin=${NODE:-node}
b=../../fixtures/formats/benchmarkjs
t=../../fixtures/formats/tinybench
mkdir -p "$b" "$t"
{
  echo "node $("$node_bin" --version)"
  for p in benchmark tinybench vitest; do
    echo "$p $("$node_bin" -p "require('./node_modules/$p/package.json').version")"
  done
} > VERSIONS
"$node_bin" benchmarkjs.js > "$b/bench.txt"
DUETKIT_SLOW=1 "$node_bin" benchmarkjs.js > "$b/bench-slow.txt"
"$node_bin" tinybench.js > "$t/tinybench.json"
DUETKIT_SLOW=1 "$node_bin" tinybench.js > "$t/tinybench-slow.json"
vitest=(node_modules/vitest/vitest.mjs bench --run --watch=false)
"$node_bin" "${vitest[@]}" --outputJson /tmp/duetkit-vitest.json > /dev/null
sed "s#$PWD#/PROGRAM#g" /tmp/duetkit-vitest.json > "$t/vitest.json"
c=../../fixtures/formats/custom
mkdir -p "$c"
"$node_bin" custom.js smaller > "$c/smaller.json"
"$node_bin" custom.js bigger > "$c/bigger.json"
DUETKIT_SLOW=1 "$node_bin" custom.js smaller > "$c/smaller-slow.json"
