import path from 'node:path';
import { PROGRAMS, pythonWithPytestBenchmark, removeDir, runE2e, versionDirs } from './helpers.js';

// pytest-benchmark, one test at a time (-k), its --benchmark-json file read after each run.
describe('e2e: pytest-benchmark, per-benchmark duet', () => {
  let dirs: Awaited<ReturnType<typeof versionDirs>>;
  beforeAll(async () => {
    // Each version writes bench.json in its own directory, as two checkouts would.
    dirs = await versionDirs(
      ['bench_sums.py', 'sums.py', 'pytest.ini'],
      path.join(PROGRAMS, 'python'),
    );
  });
  afterAll(() => removeDir(dirs.root));

  it('finds the regression in the benchmark that was slowed', async () => {
    const python = pythonWithPytestBenchmark();
    const result = await runE2e(
      'python',
      `name: pytest-sums
versions:
  - {name: base, path: ${dirs.base}}
  - {name: head, path: ${dirs.head}, env: {DUETKIT_SLOW: "1"}}
workload:
  command: [${python}, -m, pytest, -q, -p, no:cacheprovider, --benchmark-min-rounds=20, --benchmark-max-time=0.001, --benchmark-warmup=off, --benchmark-json=bench.json]
  output: bench.json
  format: pytest
  perBenchmark: true
iterations: 10
warmup: 1
seed: 12
analysis: {level: 0.95, resamples: 2000}
`,
    );
    expect(result.verdict('bench_sums.py::test_sum_squares')).toBe('regression');
    expect(result.report.summary.error).toBe(0);
    expect(result.samples.perBenchmark?.runs.map((r) => r.benchmark)).toEqual([
      'bench_sums.py::test_sum_squares',
      'bench_sums.py::test_join_words',
    ]);
    // Raw samples: every round pytest-benchmark timed, many per run.
    const metric = result.samples.trials[0]!.metrics[0]!;
    expect(metric.valueKind).toBe('samples');
    expect(metric.values.length).toBeGreaterThanOrEqual(20);
  }, 120_000);
});
