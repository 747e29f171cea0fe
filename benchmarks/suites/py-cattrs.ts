import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cacheDir, inject, threeCopies, type Suite, type UsualResult } from './suite.js';

/**
 * cattrs 26.2.1 from PyPI (`pip download --no-binary`: the sdist carries its pytest-benchmark
 * suite in bench/), run from source with PYTHONPATH=src in a virtualenv of pinned pytest
 * 9.2.0, pytest-benchmark 5.3.1, attrs 25.4.0 and typing_extensions 4.15.0: bench/test_primitives.py and
 * bench/test_tuples.py, 14 benchmarks of 0.1–3 µs. The slowdown: BaseConverter._structure_tuple
 * (homogeneous and heterogeneous tuples) sums a small range first.
 */
const VERSION = '26.2.1';
const PINS = [
  'pytest==9.2.0',
  'pytest-benchmark==5.3.1',
  'attrs==25.4.0',
  'typing_extensions==4.15.0',
];
const FILES = ['bench/test_primitives.py', 'bench/test_tuples.py'];

function venv(): string {
  const dir = path.join(cacheDir(), `py-venv-${PINS.join('-').replace(/[^\w.-]/g, '_')}`);
  if (!existsSync(path.join(dir, 'bin', 'python'))) {
    execFileSync('python3', ['-m', 'venv', dir], { stdio: 'ignore' });
    execFileSync(path.join(dir, 'bin', 'pip'), ['install', '-q', ...PINS], { stdio: 'ignore' });
  }
  return dir;
}

export const pyCattrs: Suite = {
  name: 'py-cattrs',
  label: `Python: cattrs ${VERSION} (PyPI), pytest-benchmark 5.3.1`,
  injected: {
    where: 'BaseConverter._structure_tuple (src/cattrs/converters.py)',
    affects: /test_structure_(homo|hetero)_tuple/,
  },
  prepare() {
    const python = path.join(venv(), 'bin', 'python');
    const root = path.join(cacheDir(), `py-cattrs-${VERSION}`);
    const dirs = threeCopies(root, unpacked(python), (slow) =>
      inject(
        path.join(slow, 'src', 'cattrs', 'converters.py'),
        '        """Deal with structuring into a tuple."""\n',
        '        """Deal with structuring into a tuple."""\n        sum(range(12))  # extra work injected by duetkit bench:suites\n',
      ),
    );
    const env = {
      ...process.env,
      PYTHONPATH: 'src',
      PYTHONDONTWRITEBYTECODE: '1',
      DUETKIT_PYTHON: python,
    };
    return { ...dirs, env };
  },
  scenario: (benchmarks) => [
    'workload:',
    `  command: [${path.join(venv(), 'bin', 'python')}, -m, pytest, ${FILES.join(', ')}, -q, -p, no:cacheprovider, --benchmark-json=bench.json, --benchmark-max-time=0.05, --benchmark-min-rounds=5]`,
    '  format: pytest',
    '  output: bench.json',
    '  perBenchmark: true',
    ...(benchmarks === undefined ? [] : [`  benchmarks: ${JSON.stringify(benchmarks)}`]),
    // one pytest process per iteration runs every benchmark still in doubt
    'suite: { granularity: group }',
  ],
  variants: [
    { label: 'one pytest process per benchmark', suite: '{ granularity: finest }' },
    {
      label: 'one pytest process for the benchmarks in doubt (group)',
      suite: '{ granularity: group }',
    },
  ],
  truth: ['/test_structure_(homo|hetero)_tuple/', '/test_unstructure_int\\[Converter\\]/'],
  usual: pytestBenchmarkCompare,
};

function unpacked(python: string): string {
  const root = path.join(cacheDir(), `py-cattrs-sdist-${VERSION}`);
  const dir = path.join(root, `cattrs-${VERSION}`);
  if (existsSync(dir)) return dir;
  mkdirSync(root, { recursive: true });
  execFileSync(
    python,
    [
      '-m',
      'pip',
      'download',
      '-q',
      '--no-deps',
      '--no-binary',
      ':all:',
      `cattrs==${VERSION}`,
      '-d',
      root,
    ],
    { stdio: 'ignore' },
  );
  const sdist = readdirSync(root).find((f) => f.endsWith('.tar.gz'))!;
  execFileSync('tar', ['xzf', sdist], { cwd: root });
  return dir;
}

/**
 * pytest-benchmark's own comparison: base saved (--benchmark-save), head run with
 * --benchmark-compare and --benchmark-compare-fail=median:5%, the check teams put in CI;
 * max time per benchmark sized to `seconds`.
 */
function pytestBenchmarkCompare(
  base: string,
  head: string,
  seconds: number,
  env: NodeJS.ProcessEnv,
): UsualResult {
  const python = env.DUETKIT_PYTHON!;
  const storage = mkdtempSync(path.join(os.tmpdir(), 'duetkit-pytest-benchmark-'));
  const maxTime = Math.max(0.05, seconds / (2 * 14) - 0.05);
  const common = [
    '-m',
    'pytest',
    ...FILES,
    '-q',
    '-p',
    'no:cacheprovider',
    `--benchmark-storage=file://${storage}`,
    `--benchmark-max-time=${maxTime.toFixed(2)}`,
  ];
  const t0 = Date.now();
  execFileSync(python, [...common, '--benchmark-save=base'], { cwd: base, env, stdio: 'ignore' });
  // the regressions are listed in a warning on stderr: read both streams
  const result = spawnSync(
    python,
    [...common, '--benchmark-compare=0001', '--benchmark-compare-fail=median:5%'],
    { cwd: head, env, encoding: 'utf8', maxBuffer: 1 << 26 },
  );
  const report = `${result.stdout}\n${result.stderr}`;
  const spent = (Date.now() - t0) / 1000;
  const changed: Record<string, boolean> = {};
  for (const m of report.matchAll(/(test_[^\s(]+)(?: \([^)]*\))? - Field 'median' has failed/g)) {
    changed[m[1]!] = true;
  }
  return {
    method: `pytest-benchmark --benchmark-compare-fail=median:5%, max time ${maxTime.toFixed(2)} s per benchmark`,
    seconds: spent,
    changed,
    detail: report.slice(-6000),
  };
}
