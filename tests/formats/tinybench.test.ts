import { byName, fixture, formatError, fuzz, parse } from './helpers.js';

const tasks = fixture('tinybench/tinybench.json');
const vitest = fixture('tinybench/vitest.json');

describe('tinybench format', () => {
  it('keeps the retained latency samples of real tinybench results, in ms', () => {
    const result = parse('tinybench', tasks);
    const sums = byName(result, 'sumSquares(1000)');
    expect(sums).toMatchObject({ unit: 'ms', biggerIsBetter: false, valueKind: 'samples' });
    expect(sums.values).toHaveLength(40);
    expect(sums.values[0]).toBe(0.0006810000000001537);
    expect(sums.values[39]).toBe(1.3188510000000022);
    expect(byName(result, 'joinWords(64)').values).toHaveLength(116);
  });

  it('reads the real vitest bench --outputJson report (means only)', () => {
    expect(parse('tinybench', vitest)).toEqual([
      {
        name: 'sums.bench.js > sums > sumSquares(1000)',
        unit: 'ms',
        biggerIsBetter: false,
        values: [0.0004307246680191697],
        valueKind: 'summary',
      },
      {
        name: 'sums.bench.js > sums > joinWords(64)',
        unit: 'ms',
        biggerIsBetter: false,
        values: [0.0031660137086051343],
        valueKind: 'summary',
      },
    ]);
  });

  it('rejects errored tasks, NaN and empty reports', () => {
    const json = JSON.parse(tasks);
    json[1].result = { state: 'errored', error: { message: 'boom' } };
    expect(formatError(() => parse('tinybench', JSON.stringify(json))).where).toBe('$[1].result');
    expect(formatError(() => parse('tinybench', '[]')).message).toContain('no benchmark found');
    const nan = JSON.parse(vitest);
    nan.files[0].groups[0].benchmarks[0].mean = 'NaN';
    expect(formatError(() => parse('tinybench', JSON.stringify(nan))).where).toBe(
      '$.files[0].groups[0].benchmarks[0].mean',
    );
  });

  it('survives fuzzing with only FormatError', () => {
    fuzz('tinybench', [tasks.slice(0, 4000) + tasks.slice(-2000), vitest]);
  });
});
