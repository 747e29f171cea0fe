import { selectBenchmarks } from '../../src/runner/benchmark-selection.js';

const lists = (base: string[], head: string[]) =>
  new Map([
    ['base', base],
    ['head', head],
  ]);

describe('selectBenchmarks', () => {
  it("runs what every version lists, in the baseline's order", () => {
    expect(selectBenchmarks(lists(['b', 'a'], ['a', 'b']), 'base', undefined)).toEqual({
      run: ['b', 'a'],
      missing: [],
    });
  });

  it('reports benchmarks one side lacks, in either direction, instead of dropping them', () => {
    expect(selectBenchmarks(lists(['a', 'old'], ['a', 'new']), 'base', undefined)).toEqual({
      run: ['a'],
      missing: [
        { benchmark: 'old', versions: ['head'] },
        { benchmark: 'new', versions: ['base'] },
      ],
    });
  });

  it('filters by names and /regex/, and fails on an entry that matches nothing', () => {
    const both = lists(['BenchA', 'BenchB', 'Other'], ['BenchA', 'BenchB', 'Other']);
    expect(selectBenchmarks(both, 'base', ['/^Bench/']).run).toEqual(['BenchA', 'BenchB']);
    expect(selectBenchmarks(both, 'base', ['Other']).run).toEqual(['Other']);
    expect(() => selectBenchmarks(both, 'base', ['Other', 'Nope'])).toThrow(
      'workload.benchmarks[1]: "Nope" matches none of the listed benchmarks; expected an exact name or a /regex/ matching one of: BenchA, BenchB, Other',
    );
  });
});
