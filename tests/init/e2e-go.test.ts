import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { requireTool } from '../e2e/helpers.js';
import { actionlint, cli, edited, makeRepo, removeDir, runWritten } from './helpers.js';

// tests/programs/go as a user's repository: the second commit makes it about twice as slow.
describe('duetkit init on a go test -bench repository', () => {
  let repo: string | undefined;
  afterAll(() => removeDir(repo));

  it('writes a suite that runs (HEAD~1 against HEAD, built once, sized budget) and finds the slowdown', async () => {
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
    // --budget auto (the default): 3 benchmarks found, the 2-minute floor
    const init = await cli(['init'], repo);
    expect(init.err).toBe('');
    expect(init.code).toBe(0);
    expect(init.out).toContain('found go: 2 func Benchmark… and 1 b.Run in sums_test.go');
    expect(init.out).toContain('wrote benchmarks/duetkit.yml');
    expect(init.out).toContain('wrote .github/workflows/duetkit.yml');
    expect(init.out).toContain('npx duetkit run benchmarks/duetkit.yml');
    expect(await actionlint([path.join(repo, '.github/workflows/duetkit.yml')])).toBe('');
    const scenario = await readFile(path.join(repo, 'benchmarks/duetkit.yml'), 'utf8');
    expect(scenario).toMatch(/^budget: 2m /m);
    expect(scenario).toMatch(/^suite: \{\}$/m);

    const run = await runWritten('go', repo, 'benchmarks/duetkit.yml');
    expect(run.verdict('BenchmarkSumSquares')).toBe('regression');
    expect(run.report.summary.error).toBe(0);
  }, 120_000);
});
