import type { BenchmarkResult, ComparisonReport } from '../../src/contracts/comparison.js';
import type { SamplesFile } from '../../src/contracts/samples.js';
import { profileTargets } from '../../src/profile/targets.js';
import { parseScenario } from '../../src/scenario/load.js';

const scenario = (workload: Record<string, unknown>) =>
  parseScenario({
    versions: [
      { name: 'base', path: '.' },
      { name: 'head', path: '.' },
    ],
    workload,
  });

const result = (benchmark: string, verdict: string | null, error: string | null = null) =>
  ({
    benchmark,
    baseline: 'base',
    version: 'head',
    comparison: verdict === null ? null : { verdict },
    error,
  }) as unknown as BenchmarkResult;

const report = (results: BenchmarkResult[]) => ({ results }) as unknown as ComparisonReport;

/** Base's trials of a go run: BenchmarkA at 1000 ns/op, BenchmarkB at 2e6 ns/op. */
const goSamples = {
  versions: [{ name: 'base' }, { name: 'head' }],
  trials: [1000, 1100, 900].map((ns, round) => ({
    version: 0,
    round,
    warmup: false,
    metrics: [
      { name: 'BenchmarkA', unit: 'ns/op', values: [ns] },
      { name: 'BenchmarkA - allocs/op', unit: 'allocs/op', values: [2] },
      { name: 'BenchmarkB', unit: 'ns/op', values: [2e6] },
    ],
  })),
} as unknown as SamplesFile;

/** A samples file of one round: each side's metrics, base (version 0) first. */
const oneRound = (...sides: Record<string, unknown>[][]) =>
  ({
    versions: [{ name: 'base' }, { name: 'head' }],
    trials: sides.map((metrics, version) => ({ version, round: 0, warmup: false, metrics })),
  }) as unknown as SamplesFile;

describe('profileTargets', () => {
  const goResults = [
    result('BenchmarkA', 'regression'),
    result('BenchmarkA - allocs/op', 'regression'),
    result('BenchmarkB', 'unchanged'),
    result('BenchmarkC', null, 'failed'),
  ];
  const go = scenario({ command: 'go test -bench .', format: 'go' });

  it('changed: the called results, a go benchmark for ~0.5 s of ops at the base speed', () => {
    const targets = profileTargets('changed', report(goResults), goSamples, go);
    expect(targets.map((t) => [t.benchmark, t.key])).toEqual([
      ['BenchmarkA', 'BenchmarkA'],
      ['BenchmarkA - allocs/op', 'BenchmarkA'],
    ]);
    expect(targets.slice(0, 1)).toEqual([
      {
        benchmark: 'BenchmarkA',
        baseline: 'base',
        version: 'head',
        key: 'BenchmarkA',
        argv: [
          'go',
          'test',
          '-bench',
          '.',
          '-run=^$',
          '-bench=^BenchmarkA$',
          '-benchtime=500000x',
          '-count=1',
        ],
        work: 500_001,
        scope: 'benchmark',
      },
    ]);
  });

  it('always: every result with values; never: none', () => {
    expect(
      profileTargets('always', report(goResults), goSamples, go).map((t) => [t.benchmark, t.work]),
    ).toEqual([
      ['BenchmarkA', 500_001],
      ['BenchmarkA - allocs/op', 500_001],
      ['BenchmarkB', 251],
    ]);
    expect(profileTargets('never', report(goResults), goSamples, go)).toEqual([]);
  });

  it('a command without a format: the whole command, one key for all its metrics', () => {
    const targets = profileTargets(
      'changed',
      report([result('wall-time', 'improvement'), result('wall-time (cpu)', 'improvement')]),
      goSamples,
      scenario({ command: './bench --fast', metric: 'both' }),
    );
    expect(targets).toEqual([
      {
        benchmark: 'wall-time',
        baseline: 'base',
        version: 'head',
        key: '(command)',
        argv: ['./bench', '--fast'],
        work: 1,
        scope: 'benchmark',
      },
      {
        benchmark: 'wall-time (cpu)',
        baseline: 'base',
        version: 'head',
        key: '(command)',
        argv: ['./bench', '--fast'],
        work: 1,
        scope: 'benchmark',
      },
    ]);
  });

  it('profiles a derived row as its primary, once, and a format’s whole command as `command`', () => {
    const derived = {
      ...result('BM_Parse - items_per_second', 'improvement'),
      derivedFrom: 'BM_Parse',
    } as BenchmarkResult;
    const gbench = scenario({ command: './bench', format: 'googlecpp', perBenchmark: true });
    const listed = {
      ...goSamples,
      perBenchmark: { listedBy: 'base', lists: { base: ['BM_Parse', 'BM_Sort'] } },
    } as unknown as SamplesFile;
    const targets = profileTargets(
      'changed',
      report([result('BM_Parse', 'regression'), derived]),
      listed,
      gbench,
    );
    expect(targets.map((t) => [t.benchmark, t.key, t.scope])).toEqual([
      ['BM_Parse', 'BM_Parse', 'benchmark'],
    ]);
    // only the derived row called: its primary is profiled
    expect(
      profileTargets(
        'changed',
        report([result('BM_Parse', 'unchanged'), derived]),
        listed,
        gbench,
      ).map((t) => t.benchmark),
    ).toEqual(['BM_Parse']);
    const jsonl = scenario({ command: 'node bench.js', format: 'jsonl' });
    expect(
      profileTargets('changed', report([result('checksum', 'regression')]), goSamples, jsonl),
    ).toEqual([
      expect.objectContaining({ benchmark: 'checksum', key: '(command)', scope: 'command' }),
    ]);
  });

  it('benchmarkCommand: each benchmark in a process of its own, scope benchmark', () => {
    const quickstart = scenario({
      command: 'node bench.js',
      format: 'jsonl',
      benchmarkCommand: 'node bench.js {benchmark}',
    });
    const targets = profileTargets(
      'changed',
      report([result('checksum', 'regression'), result('sort', 'improvement')]),
      goSamples,
      quickstart,
    );
    expect(targets).toEqual([
      {
        benchmark: 'checksum',
        baseline: 'base',
        version: 'head',
        key: 'checksum',
        argv: ['node', 'bench.js', 'checksum'],
        work: 1,
        scope: 'benchmark',
      },
      {
        benchmark: 'sort',
        baseline: 'base',
        version: 'head',
        key: 'sort',
        argv: ['node', 'bench.js', 'sort'],
        work: 1,
        scope: 'benchmark',
      },
    ]);
    // it comes before a format's own filter
    const gbench = scenario({
      command: './bench',
      format: 'googlecpp',
      benchmarkCommand: './bench --benchmark_filter={benchmark} --benchmark_min_time=0.5s',
    });
    expect(
      profileTargets('changed', report([result('BM_Parse', 'regression')]), goSamples, gbench)[0],
    ).toEqual(
      expect.objectContaining({
        argv: ['./bench', '--benchmark_filter=BM_Parse', '--benchmark_min_time=0.5s'],
        scope: 'benchmark',
      }),
    );
  });

  it('a format that can filter: its filter, measured one at a time or not', () => {
    const gbench = scenario({ command: './bench --benchmark_repetitions=3', format: 'googlecpp' });
    expect(
      profileTargets('changed', report([result('BM_Parse/64', 'regression')]), goSamples, gbench),
    ).toEqual([
      expect.objectContaining({
        key: 'BM_Parse/64',
        argv: ['./bench', '--benchmark_repetitions=3', '--benchmark_filter=^BM_Parse/64$'],
        scope: 'benchmark',
      }),
    ]);
    // a metric of a benchmark is profiled as that benchmark, one profile for both
    const counters = oneRound([
      { name: 'BM_Parse', unit: 'ns', values: [1] },
      { name: 'BM_Parse - bytes', unit: 'count', values: [2] },
      { name: 'BM_Sort - x - y', unit: 'count', values: [2] },
    ]);
    expect(
      profileTargets(
        'changed',
        report([
          result('BM_Parse', 'regression'),
          result('BM_Parse - bytes', 'regression'),
          result('BM_Sort - x - y', 'regression'),
        ]),
        counters,
        gbench,
      ).map((t) => [t.benchmark, t.key, t.argv.at(-1)]),
    ).toEqual([
      ['BM_Parse', 'BM_Parse', '--benchmark_filter=^BM_Parse$'],
      ['BM_Parse - bytes', 'BM_Parse', '--benchmark_filter=^BM_Parse$'],
      ['BM_Sort - x - y', 'BM_Sort - x - y', '--benchmark_filter=^BM_Sort - x - y$'],
    ]);
    // pytest's -k matches substrings: the other benchmarks the baseline reported (not
    // derived rows, not head's) are excluded by name
    const pytestSamples = oneRound(
      [
        { name: 'bench/test_p.py::test_parse', unit: 's', values: [1] },
        { name: 'bench/test_p.py::test_parse_all', unit: 's', values: [2] },
        {
          name: 'bench/test_p.py::test_parse - ops',
          unit: 'ops/s',
          values: [1],
          derivedFrom: 'bench/test_p.py::test_parse',
        },
      ],
      [{ name: 'bench/test_p.py::test_parse_fast', unit: 's', values: [1] }],
    );
    const pytest = scenario({ command: 'pytest bench/', format: 'pytest' });
    expect(
      profileTargets(
        'changed',
        report([result('bench/test_p.py::test_parse', 'regression')]),
        pytestSamples,
        pytest,
      ),
    ).toEqual([
      expect.objectContaining({
        key: 'bench/test_p.py::test_parse',
        argv: ['pytest', 'bench/', '-k', 'test_parse and not test_parse_all'],
        scope: 'benchmark',
      }),
    ]);
  });
});
