#!/usr/bin/env bash
# Builds the JMH benchmarks with Maven (jmh-core and its annotation processor from Maven
# Central) and rewrites the `jmh` fixtures. One fork, three short iterations per benchmark.
set -euo pipefail
cd "$(dirname "$0")"
mvn -q -B -Dstyle.color=never compile dependency:build-classpath -Dmdep.outputFile=target/classpath.txt
cp="target/classes:$(cat target/classpath.txt)"
{
  java -version 2>&1 | sed -n 1p
  mvn -v -B | sed -n 1p
  grep -o '<jmh.version>[^<]*' pom.xml | sed 's/<jmh.version>/jmh /'
} | sed 's/\x1b\[[0-9;]*m//g' > VERSIONS
out=../../fixtures/formats/jmh
mkdir -p "$out"
opts=(-f 1 -wi 1 -w 200ms -i 3 -r 200ms)
java -cp "$cp" org.openjdk.jmh.Main "${opts[@]}" -rf json -rff /tmp/duetkit-jmh.json > /dev/null
cp /tmp/duetkit-jmh.json "$out/bench.json"
DUETKIT_SLOW=1 java -cp "$cp" org.openjdk.jmh.Main "${opts[@]}" -rf json -rff /tmp/duetkit-jmh.json > /dev/null
cp /tmp/duetkit-jmh.json "$out/bench-slow.json"
java -cp "$cp" org.openjdk.jmh.Main -l > "$out/list.txt"
