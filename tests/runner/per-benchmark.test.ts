import { analyzeSamples } from '../../src/analyze/analyze.js';
import { runScenario } from '../../src/pipeline/local-run.js';
import { loadedScenario, makeWorkspace, never, removeWorkspace } from './helpers.js';

// A stand-in for `go test -bench`: lists its benchmarks for -list, else runs the one named by
// the last -bench regex and writes go's result line to out.txt (read through workload.output).
// $NS is the time per op; base and head list one benchmark the other lacks.
const program = (names: string) => `for a; do last=$a; done
case "$*" in *-list*) printf '${names}'; exit 0;; esac
name=$(printf %s "$last" | tr -d '^$')
echo "$name-2 1000 $((NS + $$ % 7)) ns/op" > out.txt
`;

describe('per-benchmark runs', () => {
  let root: string;
  beforeAll(async () => {
    root = await makeWorkspace({
      base: { 'bench.sh': program('BenchmarkA\\nBenchmarkB\\nBenchmarkOld\\n') },
      head: { 'bench.sh': program('BenchmarkA\\nBenchmarkNew\\nBenchmarkB\\n') },
    });
  });
  afterAll(() => removeWorkspace(root));

  it('runs each common benchmark alone in both versions and reports the others as errors', async () => {
    const samples = await runScenario(
      loadedScenario(
        {
          versions: [
            { name: 'base', path: 'base', env: { NS: '100' } },
            { name: 'head', path: 'head', env: { NS: '200' } },
          ],
          workload: {
            command: 'sh bench.sh',
            format: 'go',
            output: 'out.txt',
            perBenchmark: true,
            benchmarks: ['/^Benchmark(A|B|Old|New)$/'],
          },
          mode: 'rmit',
          iterations: 8,
          warmup: 1,
          isolation: 'none',
          seed: 4,
          analysis: { level: 0.95, resamples: 1000 },
        },
        root,
      ),
      { signal: never, env: process.env },
    );
    expect(samples.error).toBeNull();
    expect(samples.perBenchmark).toMatchObject({
      listedBy: 'base',
      missing: [
        { benchmark: 'BenchmarkOld', versions: ['head'] },
        { benchmark: 'BenchmarkNew', versions: ['base'] },
      ],
    });
    expect(samples.perBenchmark!.runs.map((r) => r.argv.slice(-2))).toEqual([
      ['-bench', '^BenchmarkA$'],
      ['-bench', '^BenchmarkB$'],
    ]);
    // Rounds are numbered on across benchmarks; each trial ran, and reported, its benchmark.
    expect([...new Set(samples.trials.map((t) => t.round))]).toEqual([...Array(18).keys()]);
    for (const trial of samples.trials) {
      expect(trial.metrics.map((m) => m.name)).toEqual([trial.benchmark]);
    }
    const report = analyzeSamples(samples);
    const verdicts = Object.fromEntries(
      report.results.map((r) => [r.benchmark, r.comparison?.verdict ?? r.error]),
    );
    expect(verdicts).toEqual({
      BenchmarkA: 'regression',
      BenchmarkB: 'regression',
      BenchmarkOld: expect.stringMatching(/^not run: head does not list it/),
      BenchmarkNew: expect.stringMatching(/^not run: base does not list it/),
    });
    expect(report.summary.error).toBe(2);
  });

  it('fails before measuring when a benchmarks entry matches nothing', async () => {
    const samples = await runScenario(
      loadedScenario(
        {
          versions: [
            { name: 'base', path: 'base' },
            { name: 'head', path: 'head' },
          ],
          workload: {
            command: 'sh bench.sh',
            format: 'go',
            perBenchmark: true,
            benchmarks: ['Nope'],
          },
          isolation: 'none',
        },
        root,
      ),
      { signal: never, env: process.env },
    );
    expect(samples.complete).toBe(false);
    expect(samples.error).toMatch(
      /workload.benchmarks\[0\]: "Nope" matches none of the listed benchmarks/,
    );
    expect(samples.trials).toHaveLength(0);
  });
});
