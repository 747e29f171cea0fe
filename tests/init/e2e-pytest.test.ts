import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pythonWithPytestBenchmark } from '../e2e/helpers.js';
import { actionlint, cli, edited, makeRepo, removeDir, runWritten } from './helpers.js';

// tests/programs/python (pytest-benchmark) as a user's repository: the second commit slows it.
describe('duetkit init on a pytest-benchmark repository', () => {
  let repo: string | undefined;
  afterAll(() => removeDir(repo));

  it('writes a scenario that runs pytest-benchmark per benchmark and finds the slowdown', async () => {
    // The written command runs `python3`: the venv with pytest-benchmark goes first on PATH.
    const python = pythonWithPytestBenchmark();
    const env = {
      ...process.env,
      PATH: `${path.dirname(python)}${path.delimiter}${process.env.PATH ?? ''}`,
    };
    repo = await makeRepo(
      {
        'bench_sums.py': { from: 'tests/programs/python/bench_sums.py' },
        'sums.py': { from: 'tests/programs/python/sums.py' },
        'pytest.ini': { from: 'tests/programs/python/pytest.ini' },
        'requirements.txt': { from: 'tests/programs/python/requirements.txt' },
      },
      {
        'sums.py': await edited(
          'tests/programs/python/sums.py',
          'SLOW = os.environ.get("DUETKIT_SLOW") == "1"',
          'SLOW = True',
        ),
      },
    );
    const init = await cli(['init', '--iterations', '10', '--budget', '2m'], repo);
    expect(init.err).toBe('');
    expect(init.code).toBe(0);
    expect(init.out).toContain('found pytest: the benchmark fixture in bench_sums.py');
    const workflow = path.join(repo, '.github/workflows/duetkit.yml');
    expect(await actionlint([workflow])).toBe('');

    // pytest-benchmark's default of up to 1 s of rounds per benchmark made each pair ~3 s (20
    // pairs a benchmark: ~60 s). CI keeps the command init wrote and only caps pytest-benchmark's
    // own time per benchmark at 0.2 s (thousands of rounds still: one takes ~50 µs), which the 2x
    // slowdown does not need more of (the scenario's structure is what is under test).
    const scenario = path.join(repo, 'benchmarks/duetkit.yml');
    const written = await readFile(scenario, 'utf8');
    const command = '--benchmark-only --benchmark-json=duetkit-pytest.json';
    expect(written).toContain(command);
    await writeFile(scenario, written.replace(command, `--benchmark-max-time=0.2 ${command}`));
    const run = await runWritten('pytest', repo, 'benchmarks/duetkit.yml', env);
    expect(run.verdict('bench_sums.py::test_sum_squares')).toBe('regression');
    expect(run.report.summary.error).toBe(0);
  }, 120_000);
});
