import { getFormat } from '../../src/formats/registry.js';
import { byName, fixture, formatError, fuzz, parse } from './helpers.js';

const real = fixture('pytest/bench.json');

describe('pytest format', () => {
  it('reads every round of the real pytest-benchmark JSON, in seconds', () => {
    const result = parse('pytest', real);
    expect(result.map((b) => b.name)).toEqual([
      'bench_sums.py::test_sum_squares',
      'bench_sums.py::test_join_words',
    ]);
    const sums = byName(result, 'bench_sums.py::test_sum_squares');
    expect(sums).toMatchObject({ unit: 's', biggerIsBetter: false, valueKind: 'samples' });
    expect(sums.values).toHaveLength(11);
    expect(sums.values[0]).toBe(4.4606000074054464e-5);
    expect(sums.values[10]).toBe(4.3034000100306e-5);
    expect(byName(result, 'bench_sums.py::test_join_words').values).toHaveLength(44);
  });

  it('falls back to the mean as a summary when stats.data is absent', () => {
    const json = JSON.parse(real);
    for (const b of json.benchmarks) delete b.stats.data;
    const [first] = parse('pytest', JSON.stringify(json));
    expect(first).toMatchObject({ values: [4.335181816631203e-5], valueKind: 'summary' });
  });

  it('rejects bad output with a JSON path', () => {
    expect(formatError(() => parse('pytest', real.slice(0, 500))).message).toMatch(
      /^pytest output, line \d+: expected the JSON written by --benchmark-json/,
    );
    const usage = formatError(() => parse('pytest', 'ERROR: usage: pytest [options]\n'));
    expect(usage.where).toBe('line 1');
    expect(usage.message).toContain('ERROR: usage');
    expect(
      formatError(() => parse('pytest', '{"machine_info": {}, "benchmarks": []}')).message,
    ).toContain('no benchmark found');
    const nan = real.replace('4.4606000074054464e-05', 'NaN');
    const nanLine = nan.split('\n').findIndex((line) => line.includes('NaN')) + 1;
    expect(nanLine).toBeGreaterThan(1);
    expect(formatError(() => parse('pytest', nan)).where).toBe(`line ${nanLine}`);
    const json = JSON.parse(real);
    json.benchmarks[1].stats.data[3] = 'fast';
    expect(formatError(() => parse('pytest', JSON.stringify(json))).where).toBe(
      '$.benchmarks[1].stats.data[3]',
    );
  });

  it('selects one test with an exact -k expression', () => {
    const support = getFormat('pytest').perBenchmark!;
    const names = support.parseList(fixture('pytest/list.txt'));
    expect(names).toEqual(['bench_sums.py::test_sum_squares', 'bench_sums.py::test_join_words']);
    expect(support.listArgv(['pytest'])).toEqual(['pytest', '--collect-only', '--verbosity=-1']);
    expect(
      support.filterArgv(['pytest'], 'a.py::test_fib', ['a.py::test_fib', 'a.py::test_fib_big']),
    ).toEqual(['pytest', '-k', 'test_fib and not test_fib_big']);
  });

  it('survives fuzzing with only FormatError', () => {
    fuzz('pytest', [real]);
  });
});
