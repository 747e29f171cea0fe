import path from 'node:path';
import { requireTool } from '../e2e/helpers.js';
import { actionlint, cli, makeRepo, removeDir, runWritten } from './helpers.js';

// A repository whose bench.sh calls hyperfine: init runs that line with --export-json added.
// The second commit makes the loop 4 times longer, not 2: each of this VM's two vCPUs runs
// fast or ~1.6 times slower in phases of its own (the host's other hyperthread), so the pair
// ratios of a 2x change spread from 1.3 to 3.3 and 12 pairs left one run in ten inconclusive
// (CI stop 31, and 1 of 10 here); a 4x change and 16 pairs keep such intervals above +5%.
describe('duetkit init on a repository benchmarked with hyperfine', () => {
  let repo: string | undefined;
  afterAll(() => removeDir(repo));

  it('writes a scenario that runs the hyperfine line of bench.sh and finds the slowdown', async () => {
    requireTool(['hyperfine', '--version'], 'hyperfine');
    const loop = (n: number): string =>
      `#!/bin/sh\ni=0\nwhile [ "$i" -lt ${n} ]; do i=$((i + 1)); done\n`;
    repo = await makeRepo(
      {
        'work.sh': loop(10000),
        'bench.sh':
          "#!/bin/sh\n# the project's benchmark\nhyperfine --runs 5 --warmup 1 \\\n  -n loop 'sh work.sh'\n",
      },
      { 'work.sh': loop(40000) },
    );
    const init = await cli(['init', '--iterations', '16', '--budget', '1m'], repo);
    expect(init.err).toBe('');
    expect(init.code).toBe(0);
    expect(init.out).toContain('found hyperfine: hyperfine in bench.sh');
    expect(await actionlint([path.join(repo, '.github/workflows/duetkit.yml')])).toBe('');

    const run = await runWritten('hyperfine', repo, 'benchmarks/duetkit.yml');
    expect(run.verdict('loop')).toBe('regression');
    expect(run.report.summary.error).toBe(0);
  }, 120_000);
});
