import path from 'node:path';
import { PROGRAMS, removeDir, requireTool, runE2e } from './helpers.js';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';

// criterion through cargo bench, one benchmark at a time (-- --exact NAME), read from its
// libtest-style "bencher" lines (the `cargo` format: one summary per run). In RMIT rounds, not
// duets: on a 2-vCPU VM whose vCPUs are slowed one at a time (by the host), criterion's
// 0.3 s means of the two sides of a duet scattered ±35–50% each, and 1 of 6 duets of 12
// pairs left this 2× slowdown `inconclusive` ([−6%, +209%]; with precision stopping, another
// still was at 36 pairs); back to back on one CPU, 12 pairs gave [+73%, +204%] at the worst
// of 3 seeds. The format's
// route is what this test is for; BENCHMARKS.md ("this VM's noise floor") has the duet's.
describe('e2e: cargo bench / criterion, per-benchmark, RMIT', () => {
  let home: string;
  beforeAll(async () => {
    home = await mkdtemp(path.join(os.tmpdir(), 'duetkit-e2e-criterion-'));
  });
  afterAll(() => removeDir(home));

  it('finds the regression in the benchmark that was slowed', async () => {
    requireTool(['cargo', '--version'], 'Rust (cargo)');
    const dir = path.join(PROGRAMS, 'rust');
    // Both versions share the program's directory: criterion's own files go to a directory per
    // version (CRITERION_HOME), so the two sides never write the same file.
    const result = await runE2e(
      'rust',
      `name: criterion-sums
versions:
  - name: base
    path: ${dir}
    setup: cargo build -q --release --benches
    env: {CRITERION_HOME: ${home}/base}
  - name: head
    path: ${dir}
    env: {CRITERION_HOME: ${home}/head, DUETKIT_SLOW: "1"}
workload:
  command: cargo bench -q --bench sums -- --noplot --output-format bencher --warm-up-time 0.1 --measurement-time 0.3
  format: cargo
  perBenchmark: true
mode: rmit
iterations: 12
warmup: 1
seed: 15
analysis: {level: 0.95, resamples: 2000}
`,
    );
    expect(result.verdict('sum_squares_1000')).toBe('regression');
    expect(result.report.summary.error).toBe(0);
    expect(result.samples.perBenchmark?.runs.map((r) => r.benchmark)).toEqual([
      'sum_squares_1000',
      'fib_15',
    ]);
    expect(result.samples.trials[0]!.metrics[0]!.valueKind).toBe('summary');
  }, 150_000);
});
