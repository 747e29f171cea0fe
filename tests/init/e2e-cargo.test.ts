import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { requireTool } from '../e2e/helpers.js';
import { actionlint, cli, edited, makeDir, makeRepo, removeDir, runWritten } from './helpers.js';

// sccache (Debian's, .ci/setup-formats.sh) as cargo's rustc wrapper: criterion's dependencies
// are compiled once and then read from its cache outside the clone (in the tools cache, where
// sccache keys each crate by compiler, source and flags). The two versions are built one after
// the other, so even on a cold cache head's dependencies come from base's build; on a warm one
// only the benchmarked crate, the build scripts and serde_derive (sccache does not cache
// proc-macros) are compiled. Its own server on a port of its own, started and stopped here.
const SCCACHE = {
  SCCACHE_DIR: path.join(
    process.env.DUETKIT_TOOLS_CACHE ??
      path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'duetkit-tools'),
    'sccache-init-e2e',
  ),
  SCCACHE_CACHE_SIZE: '2G',
  SCCACHE_SERVER_PORT: '4236',
  SCCACHE_IDLE_TIMEOUT: '900',
};
const sccache = (...args: string[]): void =>
  void execFileSync('sccache', args, { env: { ...process.env, ...SCCACHE }, stdio: 'pipe' });

// tests/programs/rust (criterion) as a user's repository: the second commit slows it down.
// Each version is a fresh checkout, so each builds criterion and its dependencies from scratch
// (the setup step): over a minute and a half each in release mode on this 2-CPU machine. The
// versions' checkouts go under a temporary directory whose .cargo/config.toml (found by cargo
// from any directory below) builds the dependencies without optimisation, as a developer's
// config may: three times faster, and the benchmarked crate and criterion's timing loop
// (generic, so compiled into the bench target) stay optimised.
describe('duetkit init on a cargo / criterion repository', () => {
  let repo: string | undefined;
  let tmp: string | undefined;
  let server = false;
  beforeAll(async () => {
    tmp = await makeDir({
      '.cargo/config.toml': '[profile.bench.package."*"]\nopt-level = 0\n',
    });
  });
  afterAll(async () => {
    if (server) sccache('--stop-server');
    await removeDir(repo);
    await removeDir(tmp);
  });

  it('writes a scenario that builds and runs criterion in both versions and finds the slowdown', async () => {
    requireTool(['cargo', '--version'], 'Rust (cargo)');
    requireTool(['sccache', '--version'], 'sccache');
    try {
      sccache('--start-server');
      server = true;
    } catch {
      sccache('--show-stats'); // a server of this test's already on the port: used, left running
    }
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

    // Offline: the registry cache of this machine has what Cargo.lock names. TMPDIR: where
    // the run makes the versions' worktrees.
    const run = await runWritten('cargo', repo, 'benchmarks/duetkit.yml', {
      ...process.env,
      ...SCCACHE,
      RUSTC_WRAPPER: 'sccache',
      CARGO_NET_OFFLINE: 'true',
      TMPDIR: tmp,
    });
    expect(run.verdict('sum_squares_1000')).toBe('regression');
    expect(run.report.summary.error).toBe(0);
    expect(run.report.results.find((r) => r.benchmark === 'fib_15')?.valueKind).toBe('samples');
  }, 300_000);
});
