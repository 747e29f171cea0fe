import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cacheDir, inject, threeCopies, type Suite, type UsualResult } from './suite.js';

/**
 * itertools 0.14.0 from crates.io (fetched with `cargo fetch` into a cache; the .crate ships
 * its benches/), its criterion 0.4 bench target `specializations`: one benchmark group per
 * iterator adaptor (about 75), each timing next, size_hint, count, last, nth/{0,1,2,4,8},
 * collect, fold (and next_back, nth_back/*, rfold, len where the adaptor has them): 941
 * benchmarks, too many for criterion's 8 s each, so the scenario selects SELECTED, 10
 * adaptors' groups, 131 benchmarks of 60 ns to 3 ms (one pass at --warm-up-time 0.2
 * --measurement-time 0.5: about 4 min with criterion's analysis). The bench target takes
 * about 5 min of CPU to build per copy (one huge macro-generated crate).
 * The slowdown: CoalesceBy::fold (src/adaptors/coalesce.rs), behind coalesce, dedup, dedup_by,
 * dedup_with_count and dedup_by_with_count, runs a short dependent loop first, so their fold,
 * count and last (which fold) change, and nothing else.
 */
const VERSION = '0.14.0';
const BENCH = 'specializations';
/** The adaptors selected (their whole groups). */
const GROUPS = [
  'interleave',
  'batching',
  'coalesce',
  'dedup',
  'dedup_by',
  'dedup_with_count',
  'dedup_by_with_count',
  'duplicates',
  'unique',
  'positions',
];
export const SELECTED = `/^(${GROUPS.join('|')})\\//`;
/** How many benchmarks SELECTED has (criterion --list). */
const BENCHMARKS = 131;

export const rustItertools: Suite = {
  name: 'rust-itertools',
  label: `Rust: itertools ${VERSION} (crates.io), criterion 0.4`,
  injected: {
    where: 'CoalesceBy::fold (src/adaptors/coalesce.rs)',
    affects: /^(coalesce|dedup|dedup_by|dedup_with_count|dedup_by_with_count)\/(fold|count|last)$/,
  },
  prepare() {
    const cargoHome = path.join(cacheDir(), 'cargo-home');
    const env = { ...process.env, CARGO_HOME: cargoHome };
    const root = path.join(cacheDir(), `rust-itertools-${VERSION}`);
    const dirs = threeCopies(root, fetched(env), (slow) =>
      inject(
        path.join(slow, 'src', 'adaptors', 'coalesce.rs'),
        '        let Self {\n            mut iter,\n            last,\n            mut f,\n        } = self;\n',
        '        let Self {\n            mut iter,\n            last,\n            mut f,\n        } = self;\n        // extra work injected by duetkit bench:suites (black_box: not optimised away)\n        let mut injected = 0u64;\n        for k in 0..96u64 {\n            injected = core::hint::black_box(injected.wrapping_mul(31).wrapping_add(k));\n        }\n        core::hint::black_box(injected);\n',
      ),
    );
    return { ...dirs, env };
  },
  scenario: (benchmarks) => [
    'workload:',
    `  command: cargo bench --bench ${BENCH}`,
    '  format: criterion',
    '  perBenchmark: true',
    `  benchmarks: ${JSON.stringify(benchmarks ?? [SELECTED])}`,
  ],
  variants: [
    {
      label: 'cargo bench per iteration (as written)',
      suite: '{ build: never, calibration: tool }',
    },
    {
      label: 'bench binary built once (cargo bench --no-run)',
      suite: '{ build: auto, calibration: tool }',
    },
    { label: '+ criterion --quick', suite: '{ build: auto, calibration: fixed }' },
  ],
  truth: [
    '/^(coalesce|dedup)\\/(fold|count|last)$/',
    '/^dedup_by_with_count\\/fold$/',
    '/^dedup\\/next$/',
    '/^unique\\/fold$/',
  ],
  usual: criterionChangeReport,
  warm: ({ base, aa, slow, env }) => {
    for (const dir of [base, aa, slow]) benchExecutable(dir, env);
  },
};

/** `cargo fetch` of a probe crate depending on itertools =VERSION, then its source directory. */
function fetched(env: NodeJS.ProcessEnv): string {
  const probe = path.join(cacheDir(), 'rust-probe-itertools');
  mkdirSync(path.join(probe, 'src'), { recursive: true });
  writeFileSync(
    path.join(probe, 'Cargo.toml'),
    `[package]\nname = "probe"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\nitertools = "=${VERSION}"\n`,
  );
  writeFileSync(path.join(probe, 'src', 'main.rs'), 'fn main() {}\n');
  execFileSync('cargo', ['fetch', '-q'], { cwd: probe, env, stdio: 'ignore' });
  const registry = path.join(env.CARGO_HOME!, 'registry', 'src');
  for (const index of readdirSync(registry)) {
    const dir = path.join(registry, index, `itertools-${VERSION}`);
    try {
      readdirSync(dir);
      return dir;
    } catch {
      // another index
    }
  }
  throw new Error(`itertools-${VERSION} not found under ${registry} after cargo fetch`);
}

/** The bench executable of a built copy (cargo prints it). */
function benchExecutable(dir: string, env: NodeJS.ProcessEnv): string {
  const out = execFileSync(
    'cargo',
    ['bench', '--bench', BENCH, '--no-run', '--message-format=json'],
    { cwd: dir, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 26 },
  );
  for (const line of out.split('\n')) {
    if (!line.startsWith('{')) continue;
    const m = JSON.parse(line) as { executable?: string | null; target?: { kind?: string[] } };
    if (m.executable && m.target?.kind?.includes('bench')) return m.executable;
  }
  throw new Error(`no bench executable built in ${dir}`);
}

/**
 * criterion's own change report (as rust-base64.ts): base saves a baseline, head runs against
 * it in the same criterion directory and criterion says "Performance has regressed/improved"
 * (p < 0.05 and beyond its noise threshold of 1%), or not. Measurement time sized to `seconds`.
 */
function criterionChangeReport(
  base: string,
  head: string,
  seconds: number,
  env: NodeJS.ProcessEnv,
): UsualResult {
  const measurement = Math.max(0.1, seconds / (2 * BENCHMARKS) - 0.15);
  const shared = mkdtempSync(path.join(os.tmpdir(), 'duetkit-criterion-'));
  const exeBase = benchExecutable(base, env);
  const exeHead = benchExecutable(head, env);
  const filter = SELECTED.slice(1, -1);
  const common = [
    '--bench',
    '--measurement-time',
    measurement.toFixed(2),
    '--warm-up-time',
    '0.1',
    '--noplot',
    filter,
  ];
  const t0 = Date.now();
  execFileSync(exeBase, [...common, '--save-baseline', 'base'], {
    cwd: shared,
    env,
    stdio: 'ignore',
  });
  const report = execFileSync(exeHead, [...common, '--baseline', 'base'], {
    cwd: shared,
    env,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  const spent = (Date.now() - t0) / 1000;
  const changed: Record<string, boolean> = {};
  let current: string | null = null;
  for (const line of report.split('\n')) {
    const named = /^(\S.*?)\s+time:\s+\[/.exec(line) ?? /^(\S+)$/.exec(line.trim());
    if (
      named !== null &&
      !line.startsWith(' ') &&
      !/^(Performance|No change|Change within|Found|Benchmarking)/.test(line)
    ) {
      current = named[1]!.trim();
    }
    if (current === null) continue;
    if (/Performance has (regressed|improved)/.test(line)) changed[current] = true;
    else if (/No change in performance detected|Change within noise threshold/.test(line)) {
      changed[current] ??= false;
    }
  }
  return {
    method: `criterion change report (--save-baseline / --baseline), measurement ${measurement.toFixed(2)} s per benchmark`,
    seconds: spent,
    changed,
    detail: report.slice(0, 20000),
  };
}
