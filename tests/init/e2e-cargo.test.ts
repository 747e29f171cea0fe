import path from 'node:path';
import { requireTool } from '../e2e/helpers.js';
import { actionlint, cli, edited, makeRepo, removeDir, runWritten } from './helpers.js';

// tests/programs/rust (criterion) as a user's repository: the second commit slows it down.
// Each version is a fresh checkout, so each builds criterion from scratch (the setup step).
describe('duetkit init on a cargo / criterion repository', () => {
  let repo: string | undefined;
  afterAll(() => removeDir(repo));

  it('writes a scenario that builds and runs criterion in both versions and finds the slowdown', async () => {
    requireTool(['cargo', '--version'], 'Rust (cargo)');
    repo = await makeRepo(
      {
        'Cargo.toml': { from: 'tests/programs/rust/Cargo.toml' },
        'Cargo.lock': { from: 'tests/programs/rust/Cargo.lock' },
        'src/lib.rs': { from: 'tests/programs/rust/src/lib.rs' },
        'benches/sums.rs': { from: 'tests/programs/rust/benches/sums.rs' },
        '.gitignore': 'target/\n',
      },
      {
        'src/lib.rs': await edited(
          'tests/programs/rust/src/lib.rs',
          /std::env::var\("DUETKIT_SLOW"\)\.map\(\|v\| v == "1"\)\.unwrap_or\(false\)/,
          'true',
        ),
      },
    );
    const init = await cli(['init', '--iterations', '10', '--budget', '3m'], repo);
    expect(init.err).toBe('');
    expect(init.code).toBe(0);
    expect(init.out).toContain('found cargo: criterion in Cargo.toml');
    expect(await actionlint([path.join(repo, '.github/workflows/duetkit.yml')])).toBe('');

    // Offline: the registry cache of this machine has what Cargo.lock names.
    const run = await runWritten(repo, 'benchmarks/duetkit.yml', {
      ...process.env,
      CARGO_NET_OFFLINE: 'true',
    });
    expect(run.verdict('sum_squares_1000')).toBe('regression');
    expect(run.report.summary.error).toBe(0);
    expect(run.report.results.find((r) => r.benchmark === 'fib_15')?.valueKind).toBe('samples');
  }, 300_000);
});
