import path from 'node:path';
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
  command: [hyperfine, --runs, "5", --warmup, "1", --style, none, -n, loop, sh work.sh 20000, --export-json, out.json]
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
});
