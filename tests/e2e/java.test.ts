import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROGRAMS, removeDir, requireFile, requireTool, runE2e, versionDirs } from './helpers.js';

// JMH, one benchmark at a time (its include regex), the -rff JSON file read after each run.
// Two JMH runs at once need -Djmh.ignoreLock=true: JMH otherwise refuses a second instance.
describe('e2e: JMH, per-benchmark duet', () => {
  let dirs: Awaited<ReturnType<typeof versionDirs>>;
  beforeAll(async () => {
    // Empty directories: each version's JMH writes its jmh.json in its own.
    dirs = await versionDirs([], PROGRAMS);
  });
  afterAll(() => removeDir(dirs.root));

  it('finds the regression in the selected benchmark that was slowed', async () => {
    requireTool(['java', '-version'], 'Java');
    const java = path.join(PROGRAMS, 'java');
    const classpathFile = path.join(java, 'target', 'classpath.txt');
    requireFile(
      path.join(java, 'target', 'classes', 'META-INF', 'BenchmarkList'),
      'the JMH classes',
    );
    requireFile(classpathFile, 'the JMH class path');
    const classpath = `${path.join(java, 'target', 'classes')}:${readFileSync(classpathFile, 'utf8').trim()}`;
    const result = await runE2e(
      'java',
      `name: jmh-sums
versions:
  - {name: base, path: ${dirs.base}}
  - {name: head, path: ${dirs.head}, env: {DUETKIT_SLOW: "1"}}
workload:
  command: [java, -Djmh.ignoreLock=true, -cp, "${classpath}", org.openjdk.jmh.Main, -f, "1", -wi, "2", -w, 100ms, -i, "3", -r, 100ms, -rf, json, -rff, jmh.json]
  output: jmh.json
  format: jmh
  perBenchmark: true
  benchmarks: [/sumSquares$/]
iterations: 10
warmup: 1
seed: 16
timeout: 60
analysis: {level: 0.95, resamples: 2000}
`,
    );
    expect(result.verdict('duetkit.SumsBenchmark.sumSquares ( {"n":"1000"} )')).toBe('regression');
    // Only the benchmark selected by workload.benchmarks ran.
    expect(result.samples.perBenchmark?.runs.map((r) => r.benchmark)).toEqual([
      'duetkit.SumsBenchmark.sumSquares',
    ]);
    expect(result.report.summary.error).toBe(0);
  }, 150_000);
});
