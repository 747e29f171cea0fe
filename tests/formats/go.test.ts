import { getFormat } from '../../src/formats/registry.js';
import { byName, fixture, formatError, fuzz, parse } from './helpers.js';

const real = fixture('go/bench.txt');

describe('go format', () => {
  it('reads every metric of every line of the real go test -bench output', () => {
    const result = parse('go', real);
    expect(result.map((b) => b.name)).toEqual([
      'BenchmarkSumSquares',
      'BenchmarkSumSquares - B/op',
      'BenchmarkSumSquares - allocs/op',
      'BenchmarkJoin/n=10',
      'BenchmarkJoin/n=10 - words/op',
      'BenchmarkJoin/n=10 - B/op',
      'BenchmarkJoin/n=10 - allocs/op',
      'BenchmarkJoin/n=100',
      'BenchmarkJoin/n=100 - words/op',
      'BenchmarkJoin/n=100 - B/op',
      'BenchmarkJoin/n=100 - allocs/op',
    ]);
    expect(byName(result, 'BenchmarkSumSquares')).toEqual({
      name: 'BenchmarkSumSquares',
      unit: 'ns/op',
      biggerIsBetter: false,
      values: [277.1, 277.3, 285.5],
      valueKind: 'samples',
      // b.N × ns/op of each line: what go says it measured, for the efficiency accounting
      measuredNs: 2000 * 277.1 + 2000 * 277.3 + 2000 * 285.5,
    });
    expect(byName(result, 'BenchmarkJoin/n=100').values).toEqual([1815, 2010, 1879]);
    expect(byName(result, 'BenchmarkJoin/n=100 - B/op').values).toEqual([2000, 2000, 2000]);
    expect(byName(result, 'BenchmarkJoin/n=10 - allocs/op').unit).toBe('allocs/op');
    expect(byName(result, 'BenchmarkJoin/n=10 - words/op').values).toEqual([10, 10, 10]);
  });

  it('keeps a sub-benchmark named "-1234" whole when no procs suffix follows (GOMAXPROCS 1)', () => {
    // valyala/fastjson's BenchmarkParseRawNumber/-1234, run pinned to one CPU and at GOMAXPROCS 2
    const one = parse('go', 'BenchmarkParseRawNumber/-1234   1000000   41.5 ns/op\n');
    expect(one.map((b) => b.name)).toEqual(['BenchmarkParseRawNumber/-1234']);
    const two = parse('go', 'BenchmarkParseRawNumber/-1234-2   1000000   41.5 ns/op\n');
    expect(two.map((b) => b.name)).toEqual(['BenchmarkParseRawNumber/-1234']);
    expect(byName(two, 'BenchmarkParseRawNumber/-1234').values).toEqual([41.5]);
    const plain = parse('go', 'BenchmarkParseRawNumber/1234-2   1000000   41.5 ns/op\n');
    expect(plain.map((b) => b.name)).toEqual(['BenchmarkParseRawNumber/1234']);
  });

  it('shows the slow variant as slower', () => {
    const slow = byName(parse('go', fixture('go/bench-slow.txt')), 'BenchmarkSumSquares');
    expect(Math.min(...slow.values)).toBeGreaterThan(Math.max(277.1, 277.3, 285.5));
  });

  it('treats rates as bigger-is-better', () => {
    const [rate] = parse('go', 'BenchmarkCopy-8   100   50.0 ns/op   2048.5 MB/s\n').slice(1);
    expect(rate).toMatchObject({
      name: 'BenchmarkCopy - MB/s',
      unit: 'MB/s',
      biggerIsBetter: true,
      // bytes per op over ns/op: the same measurement, counted once in the family
      derivedFrom: 'BenchmarkCopy',
    });
  });

  it('rejects bad output with the line and what was expected', () => {
    expect(formatError(() => parse('go', 'PASS\nok  \tpkg\t0.1s\n')).message).toMatch(
      /^go output, the whole output: expected lines like .*no benchmark found/,
    );
    expect(
      formatError(() => parse('go', 'goos: linux\nBenchmarkX-2  100  12.5 ns/op  3\n')).where,
    ).toBe('line 2');
    expect(formatError(() => parse('go', 'BenchmarkX-2  100  NaN ns/op\n')).message).toContain(
      'a number before unit "ns/op"',
    );
    const failed = formatError(() =>
      parse('go', `${real.split('\n').slice(0, 6).join('\n')}\n--- FAIL: BenchmarkJoin\nFAIL\n`),
    );
    expect(failed.where).toBe('line 7');
    expect(failed.message).toContain('go test reported a failure');
    expect(
      formatError(() => parse('go', 'BenchmarkX  10  5 ns/op\nBenchmarkX  10  5 ms/op\n')).message,
    ).toContain('mixed units');
  });

  it('lists benchmarks and builds anchored filters for per-benchmark runs', () => {
    const support = getFormat('go').perBenchmark!;
    expect(support.parseList(fixture('go/list.txt'))).toEqual([
      'BenchmarkSumSquares',
      'BenchmarkJoin',
    ]);
    expect(support.listArgv(['go', 'test', '-bench', '.'])).toEqual([
      'go',
      'test',
      '-bench',
      '.',
      '-run',
      '^$',
      '-list',
      '^Benchmark',
    ]);
    expect(support.filterArgv(['go', 'test', '-bench', '.'], 'BenchmarkJoin/n=10', [])).toEqual([
      'go',
      'test',
      '-bench',
      '.',
      '-run',
      '^$',
      '-bench',
      '^BenchmarkJoin$/^n=10$',
    ]);
  });

  it('survives fuzzing with only FormatError', () => {
    fuzz('go', [real]);
  });
});
