import path from 'node:path';
import { requireTool } from '../e2e/helpers.js';
import { actionlint, cli, edited, makeRepo, removeDir, runWritten } from './helpers.js';

// tests/programs/go as a user's repository: the second commit makes it about twice as slow.
describe('duetkit init on a go test -bench repository', () => {
  let repo: string | undefined;
  afterAll(() => removeDir(repo));

  it('writes a scenario that runs (per-benchmark duet of HEAD~1 and HEAD) and finds the slowdown', async () => {
    requireTool(['go', 'version'], 'Go');
    repo = await makeRepo(
      {
        'go.mod': { from: 'tests/programs/go/go.mod' },
        'sums.go': { from: 'tests/programs/go/sums.go' },
        'sums_test.go': { from: 'tests/programs/go/sums_test.go' },
      },
      {
        'sums.go': await edited(
          'tests/programs/go/sums.go',
          'os.Getenv("DUETKIT_SLOW") == "1"',
          'os.Getenv("DUETKIT_SLOW") != "never"',
        ),
      },
    );
    const init = await cli(['init', '--iterations', '12', '--budget', '2m'], repo);
    expect(init.err).toBe('');
    expect(init.code).toBe(0);
    expect(init.out).toContain('found go: 2 func Benchmark… in sums_test.go');
    expect(init.out).toContain('wrote benchmarks/duetkit.yml');
    expect(init.out).toContain('wrote .github/workflows/duetkit.yml');
    expect(init.out).toContain('npx duetkit run benchmarks/duetkit.yml');
    expect(await actionlint([path.join(repo, '.github/workflows/duetkit.yml')])).toBe('');

    const run = await runWritten('go', repo, 'benchmarks/duetkit.yml');
    expect(run.verdict('BenchmarkSumSquares')).toBe('regression');
    expect(run.report.summary.error).toBe(0);
  }, 120_000);
});
