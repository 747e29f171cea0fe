import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cacheDir, inject, threeCopies, type Suite, type UsualResult } from './suite.js';

/**
 * base64 0.22.1 from crates.io (fetched with `cargo fetch` into a cache), its criterion 0.4
 * benchmarks: encode and decode of 50 B and 3 KiB inputs, 4 functions each, with throughput.
 * The slowdown: Engine::encode_slice encodes a 32nd of its input once more from 512 B up
 * (about +5% at 3 KiB), so only encode_small_input/encode_slice/3072 changes.
 */
const VERSION = '0.22.1';
export const SELECTED =
  '/^(encode|decode)_small_input\\/(encode|encode_slice|encode_reuse_buf|encode_display|decode|decode_slice|decode_reuse_buf|decode_stream)\\/(50|3072)$/';

export const rustBase64: Suite = {
  name: 'rust-base64',
  label: `Rust: base64 ${VERSION} (crates.io), criterion 0.4`,
  injected: {
    where: 'Engine::encode_slice (src/engine/mod.rs)',
    affects: /^encode_small_input\/encode_slice\/3072$/,
  },
  prepare() {
    const cargoHome = path.join(cacheDir(), 'cargo-home');
    const env = { ...process.env, CARGO_HOME: cargoHome };
    const root = path.join(cacheDir(), `rust-base64-${VERSION}`);
    const dirs = threeCopies(root, fetched(env), (slow) =>
      inject(
        path.join(slow, 'src', 'engine', 'mod.rs'),
        '            encode_with_padding(input_bytes, b64_output, engine, encoded_size);\n',
        '            encode_with_padding(input_bytes, b64_output, engine, encoded_size);\n            // extra work injected by duetkit bench:suites\n            #[cfg(feature = "alloc")]\n            if input_bytes.len() >= 512 {\n                let _ = core::hint::black_box(engine.encode(&input_bytes[..input_bytes.len() / 32]));\n            }\n',
      ),
    );
    return { ...dirs, env };
  },
  scenario: (benchmarks) => [
    'workload:',
    '  command: cargo bench --bench benchmarks',
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
  truth: ['/^encode_small_input\\/encode_slice\\//', '/^encode_small_input\\/encode\\/3072$/'],
  usual: criterionChangeReport,
  warm: ({ base, aa, slow, env }) => {
    for (const dir of [base, aa, slow]) benchExecutable(dir, env);
  },
};

/** `cargo fetch` of a probe crate depending on base64 =VERSION, then its source directory. */
function fetched(env: NodeJS.ProcessEnv): string {
  const probe = path.join(cacheDir(), 'rust-probe');
  mkdirSync(path.join(probe, 'src'), { recursive: true });
  writeFileSync(
    path.join(probe, 'Cargo.toml'),
    `[package]\nname = "probe"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\nbase64 = "=${VERSION}"\n`,
  );
  writeFileSync(path.join(probe, 'src', 'main.rs'), 'fn main() {}\n');
  execFileSync('cargo', ['fetch', '-q'], { cwd: probe, env, stdio: 'ignore' });
  const registry = path.join(env.CARGO_HOME!, 'registry', 'src');
  for (const index of readdirSync(registry)) {
    const dir = path.join(registry, index, `base64-${VERSION}`);
    try {
      readdirSync(dir);
      return dir;
    } catch {
      // another index
    }
  }
  throw new Error(`base64-${VERSION} not found under ${registry} after cargo fetch`);
}

/** The bench executable of a built copy (cargo prints it). */
export function benchExecutable(dir: string, env: NodeJS.ProcessEnv): string {
  const out = execFileSync(
    'cargo',
    ['bench', '--bench', 'benchmarks', '--no-run', '--message-format=json'],
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
 * criterion's own change report: base saves a baseline, head runs against it in the same
 * criterion directory and criterion says "Performance has regressed/improved" (p < 0.05
 * and beyond its noise threshold of 1%), or not. Measurement time sized to `seconds`.
 */
function criterionChangeReport(
  base: string,
  head: string,
  seconds: number,
  env: NodeJS.ProcessEnv,
): UsualResult {
  const benchmarks = 16;
  const measurement = Math.max(0.1, seconds / (2 * benchmarks) - 0.15);
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
