import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { benchstat, benchstatMethod } from './benchstat.js';
import { cacheDir, inject, threeCopies, type Suite } from './suite.js';

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
  usual: benchstatMethod(20),
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
