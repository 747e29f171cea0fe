import { getFormat } from '../../src/formats/registry.js';
import { byName, fixture, formatError, fuzz, parse } from './helpers.js';

const real = fixture('jmh/bench.json');
const JOIN = 'duetkit.SumsBenchmark.joinWords ( {"n":"1000"} )';
const SUMS = 'duetkit.SumsBenchmark.sumSquares ( {"n":"1000"} )';

describe('jmh format', () => {
  it('keeps every iteration of every fork from rawData, with the mode deciding the direction', () => {
    const result = parse('jmh', real);
    expect(result.map((b) => b.name)).toEqual([JOIN, SUMS]);
    expect(byName(result, JOIN)).toEqual({
      name: JOIN,
      unit: 'ops/ms',
      biggerIsBetter: true,
      values: [3158.861594781124, 2309.5702461510127, 544.3421581177706],
      valueKind: 'samples',
    });
    expect(byName(result, SUMS)).toMatchObject({
      unit: 'ns/op',
      biggerIsBetter: false,
      values: [401.59619968576317, 344.65740898845706, 357.10965650531494],
    });
    expect(byName(parse('jmh', fixture('jmh/bench-slow.json')), SUMS).values[0]).toBe(
      768.0459005698716,
    );
  });

  it('keeps secondary metrics and falls back to the score without rawData', () => {
    const json = JSON.parse(real);
    delete json[1].primaryMetric.rawData;
    json[1].secondaryMetrics = {
      '·gc.alloc.rate': { score: 12.5, scoreUnit: 'MB/sec', rawData: [[12, 13]] },
    };
    const result = parse('jmh', JSON.stringify(json));
    expect(byName(result, SUMS)).toMatchObject({
      values: [367.78775505984504],
      valueKind: 'summary',
    });
    expect(byName(result, `${SUMS} - ·gc.alloc.rate`)).toMatchObject({
      unit: 'MB/sec',
      biggerIsBetter: false,
      values: [12, 13],
    });
  });

  it('rejects bad output', () => {
    expect(formatError(() => parse('jmh', '[]')).message).toContain('no benchmark found');
    expect(
      formatError(() => parse('jmh', 'Error: Unable to find the resource: /META-INF/BenchmarkList'))
        .where,
    ).toBe('line 1');
    const json = JSON.parse(real);
    json[0].primaryMetric.rawData[0][1] = 'NaN';
    expect(formatError(() => parse('jmh', JSON.stringify(json))).where).toBe(
      '$[0].primaryMetric.rawData[0][1]',
    );
    expect(formatError(() => parse('jmh', real.slice(0, 900))).where).toMatch(/^line \d+$/);
  });

  it('lists with -l and filters with an anchored include regex', () => {
    const support = getFormat('jmh').perBenchmark!;
    expect(support.parseList(fixture('jmh/list.txt'))).toEqual([
      'duetkit.SumsBenchmark.joinWords',
      'duetkit.SumsBenchmark.sumSquares',
    ]);
    expect(
      support.filterArgv(['java', '-jar', 'b.jar'], 'duetkit.SumsBenchmark.joinWords', []),
    ).toEqual(['java', '-jar', 'b.jar', '^duetkit\\.SumsBenchmark\\.joinWords$']);
  });

  it('survives fuzzing with only FormatError', () => {
    fuzz('jmh', [real]);
  });
});
