import { filesContaining } from '../project.js';
import type { Detector, WorkflowStep } from '../types.js';
import { describeFiles } from './describe.js';

const BENCHMARK_FUNC = /^func Benchmark\w*\s*\(\s*\w+\s+\*testing\.B\s*\)/m;

/**
 * `go test -bench`: `func BenchmarkX(b *testing.B)` in `*_test.go` files. Run one benchmark at
 * a time in both versions (per-benchmark duet), several short counts per run: each `-count`
 * line is one sample.
 */
export const goDetector: Detector = {
  id: 'go',
  aliases: ['golang', 'go-test'],
  lookedFor: 'go: func BenchmarkX(b *testing.B) in *_test.go files',
  async detect(project) {
    const found = await filesContaining(project, project.matching(/_test\.go$/), BENCHMARK_FUNC);
    if (found.length === 0) return null;
    const count = found.reduce(
      (n, f) => n + (f.text.match(new RegExp(BENCHMARK_FUNC.source, 'gm'))?.length ?? 0),
      0,
    );
    const everyInRoot = found.every((f) => !f.file.includes('/'));
    const goMod = project.files.includes('go.mod');
    return {
      tool: 'go',
      evidence: `${count} func Benchmark… in ${describeFiles(found.map((f) => f.file))}`,
      workload: {
        command: `go test -run '^$' -bench . -benchtime 100ms -count 5 ${everyInRoot ? '.' : './...'}`,
        format: 'go',
        perBenchmark: true,
      },
      timeout: '2m',
      steps: [setupGo(goMod)],
      comments: [
        'Each benchmark runs alone in both versions at once (perBenchmark); every -count line',
        'is one sample. Add -benchmem to compare B/op and allocs/op too.',
      ],
      notes: [],
    };
  },
};

function setupGo(goMod: boolean): WorkflowStep {
  const version: Record<string, string> = goMod
    ? { 'go-version-file': 'go.mod' }
    : { 'go-version': 'stable' };
  return { uses: 'actions/setup-go@v5', with: version };
}
