import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { benchstat, benchstatMethod } from './benchstat.js';
import { cacheDir, inject, threeCopies, type Suite } from './suite.js';

/**
 * github.com/valyala/fastjson v1.6.10 through the Go module proxy (`go mod download`), its root
 * package: 100 benchmarks counting sub-benchmarks (ParseRawString, ParseRawNumber, ObjectGet
 * over 10–100,000 items, MarshalTo, Parse and Validate of 6 documents with fastjson and
 * encoding/json), every one with allocations; 10 ns to ~100 ms per op, about 35 s for one
 * pass at -benchtime 100ms on this 2-CPU VM. The slowdown: parseRawNumber (the number
 * scanner every parse goes through) hashes the number it found once more, so that
 * BenchmarkParseRawNumber/* and the fastjson parses of number-heavy documents
 * (BenchmarkParse/canada/fastjson*) change; string lookups, validation, marshalling and
 * encoding/json do not.
 */
const MODULE = 'github.com/valyala/fastjson';
const VERSION = 'v1.6.10';
const BENCHMARKS = 100;

export const goFastjson: Suite = {
  name: 'go-fastjson',
  label: `Go: ${MODULE}@${VERSION} (module proxy)`,
  injected: {
    where: 'parseRawNumber (parser.go)',
    affects:
      /^Benchmark(ParseRawNumber\/.*|Parse\/(small|medium|large|canada|citm|twitter)\/fastjson(-get)?)$/,
  },
  prepare() {
    const gomodcache = path.join(cacheDir(), 'gomodcache');
    const env = { ...process.env, GOMODCACHE: gomodcache, GOFLAGS: '-modcacherw' };
    process.env.BENCHSTAT ??= benchstat(env);
    const root = path.join(cacheDir(), `go-fastjson-${VERSION}`);
    const dirs = threeCopies(root, downloaded(env), (slow) => {
      const parser = path.join(slow, 'parser.go');
      inject(
        parser,
        '\t\tns := s[:i]\n\t\ts = s[i:]\n\t\treturn ns, s, nil\n\t}\n\treturn s, "", nil\n}',
        '\t\tns := s[:i]\n\t\ts = s[i:]\n\t\tinjectedRehash(ns)\n\t\treturn ns, s, nil\n\t}\n\tinjectedRehash(s)\n\treturn s, "", nil\n}\n\n// injectedRehash is extra work injected by duetkit bench:suites: the number hashed once more;\n// the sink (written only on an impossible hash) keeps the compiler from removing the loop.\nfunc injectedRehash(ns string) {\n\th := uint64(len(ns))\n\tfor j := 0; j < len(ns); j++ {\n\t\th = h*31 + uint64(ns[j])\n\t}\n\tif h == 0x9e3779b97f4a7c15 {\n\t\tinjectedSink = h\n\t}\n}\n\nvar injectedSink uint64',
      );
    });
    return { ...dirs, env };
  },
  scenario: (benchmarks) => [
    'workload:',
    '  command: go test -bench . -benchmem',
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
  truth: [
    '/^BenchmarkParseRawNumber/',
    '/^BenchmarkParse/canada/',
    '/^BenchmarkParse/twitter/fastjson$/',
    '/^BenchmarkParseRawString/"abcd"$/',
    '/^BenchmarkValidate/canada/fastjson$/',
  ],
  usual: benchstatMethod(BENCHMARKS, ['-benchmem']),
  warm: ({ base, aa, slow, env }) => {
    for (const dir of [base, aa, slow]) {
      // the module's own dependencies (none today), then the test binary into go's cache
      execFileSync('go', ['mod', 'download'], { cwd: dir, env, stdio: 'ignore' });
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
