import path from 'node:path';
import { PROGRAMS, requireFile, runE2e } from './helpers.js';

const NODE = path.join(PROGRAMS, 'node');

// tinybench and benchmark.js cannot run one benchmark alone: the whole suite runs in duet.
describe('e2e: Node benchmarks in duet (whole suite)', () => {
  beforeAll(() => {
    requireFile(
      path.join(NODE, 'node_modules', 'tinybench'),
      'tinybench (npm ci in tests/programs/node)',
    );
    requireFile(
      path.join(NODE, 'node_modules', 'benchmark'),
      'benchmark.js (npm ci in tests/programs/node)',
    );
  });

  // 20 rounds, not 10: each round is a new process whose JIT tiering moves the pair ratio, and
  // at 10 pairs the trimmed mean's 95% interval of a +140% change reached down to +2.5% in one
  // of three local runs and below the 5% threshold once in CI; 20 rounds cost a second more.
  it('tinybench: raw latencies, the slowed benchmark regresses', async () => {
    const result = await runE2e(
      'node-tinybench',
      `name: tinybench-sums
versions:
  - {name: base, path: ${NODE}}
  - {name: head, path: ${NODE}, env: {DUETKIT_SLOW: "1"}}
workload:
  command: [${process.execPath}, tinybench.js]
  format: tinybench
iterations: 20
warmup: 1
seed: 17
analysis: {level: 0.95, resamples: 2000}
`,
    );
    expect(result.verdict('joinWords(64)')).toBe('regression');
    expect(result.samples.trials[0]!.metrics[0]!.valueKind).toBe('samples');
  }, 120_000);

  it('benchmark.js: ops/sec summaries (bigger is better), the slowed benchmark regresses', async () => {
    const result = await runE2e(
      'node-benchmarkjs',
      `name: benchmarkjs-sums
versions:
  - {name: base, path: ${NODE}}
  - {name: head, path: ${NODE}, env: {DUETKIT_SLOW: "1"}}
workload:
  command: [${process.execPath}, benchmarkjs.js]
  format: benchmarkjs
iterations: 8
warmup: 1
seed: 18
analysis: {level: 0.95, resamples: 2000}
`,
    );
    expect(result.verdict('joinWords(64)')).toBe('regression');
    expect(result.samples.trials[0]!.metrics[0]!.valueKind).toBe('summary');
  }, 120_000);
});
