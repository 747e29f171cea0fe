import { getFormat } from '../../src/formats/registry.js';
import { byName, fixture, formatError, fuzz, parse } from './helpers.js';

const real = fixture('googlecpp/bench.json');

describe('googlecpp format', () => {
  it('keeps every repetition and every counter of the real Google Benchmark JSON', () => {
    const result = parse('googlecpp', real);
    expect(result.map((b) => b.name)).toEqual([
      'BM_SumSquares',
      'BM_SumSquares - cpu_time',
      'BM_JoinWords/64',
      'BM_JoinWords/64 - cpu_time',
      'BM_JoinWords/64 - items_per_second',
      'BM_JoinWords/64 - words',
    ]);
    const sums = byName(result, 'BM_SumSquares');
    expect(sums).toMatchObject({ unit: 'ns/iter', biggerIsBetter: false, valueKind: 'samples' });
    expect(sums.values).toEqual([
      1193.3964302878896, 494.53647965487744, 449.1954611126413, 507.7607452442495,
      520.6042920782796,
    ]);
    expect(byName(result, 'BM_JoinWords/64 - items_per_second')).toMatchObject({
      unit: 'items/s',
      biggerIsBetter: true,
    });
    expect(byName(result, 'BM_JoinWords/64 - items_per_second').values[0]).toBe(141669328.98287082);
    expect(byName(result, 'BM_JoinWords/64 - words').values).toEqual([64, 64, 64, 64, 64]);
  });

  it('uses the mean aggregate as a summary when only aggregates were reported', () => {
    const json = JSON.parse(real);
    json.benchmarks = json.benchmarks.filter(
      (b: { run_type: string }) => b.run_type === 'aggregate',
    );
    const [sums] = parse('googlecpp', JSON.stringify(json));
    expect(sums).toMatchObject({
      name: 'BM_SumSquares',
      values: [633.0986816755875],
      valueKind: 'summary',
    });
  });

  it('rejects errors, truncation and empty lists', () => {
    const json = JSON.parse(real);
    json.benchmarks[2].error_occurred = true;
    json.benchmarks[2].error_message = 'out of memory';
    const error = formatError(() => parse('googlecpp', JSON.stringify(json)));
    expect(error.where).toBe('$.benchmarks[2]');
    expect(error.message).toContain('out of memory');
    expect(formatError(() => parse('googlecpp', real.slice(0, real.length / 2))).where).toMatch(
      /^line \d+$/,
    );
    expect(
      formatError(() => parse('googlecpp', '{"context": {}, "benchmarks": []}')).message,
    ).toContain('no benchmark found');
    json.benchmarks[2].error_occurred = false;
    json.benchmarks[3].time_unit = 'us';
    expect(formatError(() => parse('googlecpp', JSON.stringify(json))).message).toContain(
      'mixed units',
    );
  });

  it('lists and filters with --benchmark_filter', () => {
    const support = getFormat('googlecpp').perBenchmark!;
    expect(support.parseList(fixture('googlecpp/list.txt'))).toEqual([
      'BM_SumSquares',
      'BM_JoinWords/64',
    ]);
    expect(support.filterArgv(['./bench'], 'BM_JoinWords/64', [])).toEqual([
      './bench',
      '--benchmark_filter=^BM_JoinWords/64$',
    ]);
    expect(support.listArgv(['./bench'])).toEqual(['./bench', '--benchmark_list_tests=true']);
  });

  it('survives fuzzing with only FormatError', () => {
    fuzz('googlecpp', [real]);
  });
});
