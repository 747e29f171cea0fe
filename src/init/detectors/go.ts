import path from 'node:path';
import { filesContaining } from '../project.js';
import type { Detector, WorkflowStep } from '../types.js';
import { describeFiles } from './describe.js';

const BENCHMARK_FUNC = /^func Benchmark\w*\s*\(\s*(\w+)\s+\*testing\.B\s*\)/m;

/**
 * `go test -bench`: `func BenchmarkX(b *testing.B)` in `*_test.go` files, run as a suite
 * (docs/suites.md): each version's test binary built once, every benchmark calibrated once and
 * run alone in both versions with the same fixed work. A prebuilt test binary is one package,
 * so the scenario benchmarks one: the root package when it has benchmarks, else the one with
 * the most; the others are named in a note.
 */
export const goDetector: Detector = {
  id: 'go',
  aliases: ['golang', 'go-test'],
  lookedFor: 'go: func BenchmarkX(b *testing.B) in *_test.go files',
  async detect(project) {
    const found = await filesContaining(project, project.matching(/_test\.go$/), BENCHMARK_FUNC);
    if (found.length === 0) return null;
    const packages = new Map<string, { files: string[]; funcs: number; runs: number }>();
    for (const { file, text } of found) {
      const dir = path.posix.dirname(file);
      const counted = countBenchmarks(text);
      const pkg = packages.get(dir) ?? { files: [], funcs: 0, runs: 0 };
      pkg.files.push(file);
      pkg.funcs += counted.funcs;
      pkg.runs += counted.runs;
      packages.set(dir, pkg);
    }
    const ranked = [...packages.entries()].sort(
      ([a, x], [b, y]) =>
        Number(b === '.') - Number(a === '.') || y.funcs + y.runs - (x.funcs + x.runs),
    );
    const [dir, pkg] = ranked[0]!;
    const target = dir === '.' ? '.' : `./${dir}`;
    const others = ranked.slice(1).map(([d]) => `./${d}`);
    const goMod = project.files.includes('go.mod');
    const runs = pkg.runs === 0 ? '' : ` and ${pkg.runs} b.Run`;
    return {
      tool: 'go',
      evidence: `${pkg.funcs} func Benchmark…${runs} in ${describeFiles(pkg.files)}${others.length === 0 ? '' : ` (and ${others.length} more package${others.length === 1 ? '' : 's'})`}`,
      workload: {
        command: `go test -run '^$' -bench . -benchmem ${target}`,
        format: 'go',
        perBenchmark: true,
      },
      suite: {
        fields: {},
        benchmarks: pkg.funcs + pkg.runs,
        counted: 'func Benchmark… plus b.Run calls, an estimate',
        // sub-benchmarks made in loops and helpers are only known by running them
        list: {
          argv: ['go', 'test', '-run', '^$', '-bench', '.', '-benchtime', '1x', target],
          how: `listed by go test -bench . -benchtime 1x ${target}`,
        },
      },
      timeout: '2m',
      steps: [setupGo(goMod)],
      comments: [
        `A suite (below): each version's test binary is built once (go test -c ${target}), each`,
        'benchmark and sub-benchmark calibrated once, then run alone in both versions at once',
        'with the same fixed -benchtime Nx. -benchmem: B/op and allocs/op are compared exactly',
        'and shown when they differ. A test binary is one package: one scenario per package.',
      ],
      notes:
        others.length === 0
          ? []
          : [
              `go: the scenario benchmarks ${target}; ${describeFiles(others)} ${others.length === 1 ? 'has' : 'have'} benchmarks too. A prebuilt test binary is one package: for each, copy the scenario with its package in the command (go test -run '^$' -bench . -benchmem ${others[0]}), another name, and a duetkit step of its own in the workflow`,
            ],
    };
  },
};

/** `func Benchmark…` and the sub-benchmarks they start (`b.Run(`, each call once). */
function countBenchmarks(text: string): { funcs: number; runs: number } {
  const funcs = [...text.matchAll(new RegExp(BENCHMARK_FUNC.source, 'gm'))];
  const receivers = [...new Set(funcs.map((m) => m[1]!))];
  const runs = receivers.reduce(
    (n, name) => n + (text.match(new RegExp(`\\b${name}\\.Run\\(`, 'g'))?.length ?? 0),
    0,
  );
  return { funcs: funcs.length, runs };
}

function setupGo(goMod: boolean): WorkflowStep {
  const version: Record<string, string> = goMod
    ? { 'go-version-file': 'go.mod' }
    : { 'go-version': 'stable' };
  return { uses: 'actions/setup-go@v5', with: version };
}
