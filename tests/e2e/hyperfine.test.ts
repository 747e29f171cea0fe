import path from 'node:path';
import { exitStatus } from '../../src/analyze/gate.js';
import { statusOf } from '../../src/analyze/report.js';
import { PROGRAMS, removeDir, requireTool, runE2e, versionDirs } from './helpers.js';

// hyperfine runs its commands as a whole; its --export-json file is read after each run.
describe('e2e: hyperfine in duet (whole suite)', () => {
  let dirs: Awaited<ReturnType<typeof versionDirs>>;
  beforeAll(async () => {
    dirs = await versionDirs(['work.sh'], path.join(PROGRAMS, 'hyperfine'));
  });
  afterAll(() => removeDir(dirs.root));

  it('finds the regression in the slowed command', async () => {
    requireTool(['hyperfine', '--version'], 'hyperfine');
    const result = await runE2e(
      'hyperfine',
      `name: hyperfine-loop
versions:
  - {name: base, path: ${dirs.base}}
  - {name: head, path: ${dirs.head}, env: {DUETKIT_SLOW: "1"}}
workload:
  command: [hyperfine, --runs, "5", --warmup, "1", --style, none, -n, loop, sh work.sh 10000, --export-json, out.json]
  output: out.json
  format: hyperfine
iterations: 10
warmup: 1
seed: 19
analysis: {level: 0.95, resamples: 2000}
`,
    );
    expect(result.verdict('loop')).toBe('regression');
    expect(result.samples.trials[0]!.metrics[0]!.valueKind).toBe('samples');
  }, 120_000);

  it('a system time of 0 (a short command without a shell) never makes the run an error', async () => {
    requireTool(['hyperfine', '--version'], 'hyperfine');
    const result = await runE2e(
      'hyperfine-zero',
      `name: hyperfine-zero
versions:
  - {name: base, path: ${dirs.base}}
  - {name: head, path: ${dirs.head}}
workload:
  command: [hyperfine, -N, --runs, "2", --style, none, -n, "true", "true", --export-json, out.json]
  output: out.json
  format: hyperfine
iterations: 10
warmup: 1
seed: 23
analysis: {level: 0.95, resamples: 2000}
`,
    );
    const { report } = result;
    expect(report.results.map((r) => r.benchmark)).toEqual([
      'true',
      'true - user',
      'true - system',
    ]);
    expect(statusOf(report.results[0]!)).toBe('compared');
    // Whether the kernel gave these runs any system time depends on its CPU accounting (most
    // often none, here): compared or not comparable, never an error.
    for (const r of report.results) expect(statusOf(r)).not.toBe('error');
    expect(report.summary.error).toBe(0);
    expect(exitStatus(report, 'never')).toBe(0);
  }, 120_000);
});
