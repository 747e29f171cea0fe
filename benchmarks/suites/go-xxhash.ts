import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cacheDir, inject, threeCopies, type Suite, type UsualResult } from './suite.js';

/**
 * github.com/cespare/xxhash/v2 v2.3.0 through the Go module proxy (`go mod download`): 4
 * benchmarks × 5 input sizes (4 B to 10 MB, 3 ns to 1 ms per op), each with MB/s. The
 * slowdown: Sum64String hashes a 32nd of its input once more (about +3% from 100 B up,
 * nothing at 4 B and 16 B), so only BenchmarkSum64String/{100B,4KB,10MB} change.
 */
const MODULE = 'github.com/cespare/xxhash/v2';
const VERSION = 'v2.3.0';

export const goXxhash: Suite = {
  name: 'go-xxhash',
  label: `Go: ${MODULE}@${VERSION} (module proxy)`,
  injected: {
    where: 'Sum64String (xxhash_unsafe.go)',
    affects: /^BenchmarkSum64String\/(100B|4KB|10MB)$/,
  },
  prepare() {
    const gomodcache = path.join(cacheDir(), 'gomodcache');
    const env = { ...process.env, GOMODCACHE: gomodcache, GOFLAGS: '-modcacherw' };
    process.env.BENCHSTAT ??= benchstat(env);
    const root = path.join(cacheDir(), `go-xxhash-${VERSION}`);
    const dirs = threeCopies(root, downloaded(env), (slow) =>
      inject(
        path.join(slow, 'xxhash_unsafe.go'),
        '\treturn Sum64(b)\n}',
        '\tif n := len(b) / 32; n > 0 {\n\t\tinjectedSink ^= Sum64(b[:n])\n\t}\n\treturn Sum64(b)\n}\n\n// injectedSink keeps the extra work (duetkit bench:suites) from being optimised away.\nvar injectedSink uint64',
      ),
    );
    return { ...dirs, env };
  },
  scenario: (benchmarks) => [
    'workload:',
    '  command: go test -bench .',
    '  format: go',
    '  perBenchmark: true',
    ...(benchmarks === undefined ? [] : [`  benchmarks: ${JSON.stringify(benchmarks)}`]),
  ],
  variants: [
    {
      label: 'go test -bench per iteration (as written)',
      suite: '{ build: never, calibration: tool, granularity: listed }',
    },
    {
      label: 'test binary built once (go test -c)',
      suite: '{ build: auto, calibration: tool, granularity: listed }',
    },
    {
      label: '+ fixed -benchtime Nx, measured once',
      suite: '{ build: auto, calibration: fixed, granularity: listed }',
    },
    {
      label: '+ each sub-benchmark alone (finest)',
      suite: '{ build: auto, calibration: fixed, granularity: finest }',
    },
  ],
  truth: ['/^BenchmarkSum64String/', '/^BenchmarkSum64/4KB$/'],
  usual: benchstatMethod,
  warm: ({ base, aa, slow, env }) => {
    for (const dir of [base, aa, slow]) {
      execFileSync('go', ['test', '-run', '^$', '-bench', 'x^', '.'], {
        cwd: dir,
        env,
        stdio: 'ignore',
      });
    }
  },
};

function downloaded(env: NodeJS.ProcessEnv): string {
  const out = execFileSync('go', ['mod', 'download', '-json', `${MODULE}@${VERSION}`], {
    env,
    encoding: 'utf8',
  });
  return (JSON.parse(out) as { Dir: string }).Dir;
}

const COUNT = 10;
const BENCHMARKS = 20;

/** benchstat, pinned, built once into the cache with `go install` (through the module proxy). */
const BENCHSTAT_VERSION = 'v0.0.0-20260908200009-22c9c6c9d4da';
function benchstat(env: NodeJS.ProcessEnv): string {
  const dir = path.join(cacheDir(), `benchstat-${BENCHSTAT_VERSION}`);
  const bin = path.join(dir, 'benchstat');
  if (!existsSync(bin)) {
    execFileSync('go', ['install', `golang.org/x/perf/cmd/benchstat@${BENCHSTAT_VERSION}`], {
      env: { ...env, GOBIN: dir },
      stdio: 'inherit',
    });
  }
  return bin;
}

/**
 * The Go community's usual method: `go test -bench . -count 10` of base, then of head, and
 * benchstat (α = 0.05); -benchtime sized so that both take `seconds` together.
 */
function benchstatMethod(
  base: string,
  head: string,
  seconds: number,
  env: NodeJS.ProcessEnv,
): UsualResult {
  // Go runs a benchmark about 1.5× its benchtime (the b.N ramp-up)
  const perRun = Math.max(0.005, seconds / (2 * COUNT * BENCHMARKS * 1.5));
  const dir = mkdtempSync(path.join(os.tmpdir(), 'duetkit-benchstat-'));
  const t0 = Date.now();
  const run = (cwd: string): string =>
    execFileSync(
      'go',
      [
        'test',
        '-run',
        '^$',
        '-bench',
        '.',
        '-count',
        String(COUNT),
        '-benchtime',
        `${perRun.toFixed(3)}s`,
      ],
      { cwd, env, encoding: 'utf8', maxBuffer: 1 << 26 },
    );
  writeFileSync(path.join(dir, 'base.txt'), run(base));
  writeFileSync(path.join(dir, 'head.txt'), run(head));
  const spent = (Date.now() - t0) / 1000;
  const csv = execFileSync(
    process.env.BENCHSTAT ?? 'benchstat',
    ['-format', 'csv', 'base.txt', 'head.txt'],
    {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  const changed: Record<string, boolean> = {};
  // the first table is sec/op: name,base,CI,head,CI,vs base,P
  for (const line of csv.split(/\n\s*\n/)[0]!.split('\n')) {
    const cells = line.split(',');
    if (cells.length < 6 || !/^[A-Z]/.test(cells[0]!) || cells[0] === 'geomean') continue;
    const name = `Benchmark${cells[0]!.replace(/-\d+$/, '')}`;
    changed[name] = cells[5]!.trim() !== '~' && cells[5]!.trim() !== '';
  }
  return {
    method: `benchstat, go test -count ${COUNT} -benchtime ${perRun.toFixed(3)}s, base then head`,
    seconds: spent,
    changed,
    detail: csv.split(/\n\s*\n/)[0]!,
  };
}
