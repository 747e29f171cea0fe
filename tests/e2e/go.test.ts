import path from 'node:path';
import { PROGRAMS, requireTool, runE2e } from './helpers.js';

// go test -bench, one benchmark at a time (-bench '^Name$') in both versions at once.
describe('e2e: go test -bench, per-benchmark duet', () => {
  it('finds the regression in the benchmark that was slowed, each trial running one benchmark', async () => {
    requireTool(['go', 'version'], 'Go');
    const dir = path.join(PROGRAMS, 'go');
    const result = await runE2e(
      'go',
      `name: go-sums
versions:
  - {name: base, path: ${dir}}
  - {name: head, path: ${dir}, env: {DUETKIT_SLOW: "1"}}
workload:
  command: go test -run '^$' -bench . -benchtime 2000x -count 3
  format: go
  perBenchmark: true
iterations: 12
warmup: 1
seed: 11
analysis: {level: 0.95, resamples: 2000}
`,
    );
    expect(result.verdict('BenchmarkSumSquares')).toBe('regression');
    expect(result.report.summary.error).toBe(0);
    expect(result.samples.perBenchmark?.lists.base).toEqual([
      'BenchmarkSumSquares',
      'BenchmarkJoin',
    ]);
    // Every measured trial ran one benchmark and reported only that benchmark's metrics.
    for (const trial of result.samples.trials) {
      expect(trial.metrics.every((m) => m.name.startsWith(trial.benchmark!))).toBe(true);
      expect(trial.metrics.every((m) => m.valueKind === 'samples')).toBe(true);
    }
  }, 120_000);
});
