import { fixture, formatError, fuzz, parse } from './helpers.js';

const real = fixture('benchmarkjs/bench.txt');

describe('benchmarkjs format', () => {
  it('reads the real benchmark.js cycle lines as ops/sec summaries', () => {
    expect(parse('benchmarkjs', real)).toEqual([
      {
        name: 'sumSquares(1000)',
        unit: 'ops/sec',
        biggerIsBetter: true,
        values: [2382561],
        valueKind: 'summary',
      },
      {
        name: 'joinWords(64)',
        unit: 'ops/sec',
        biggerIsBetter: true,
        values: [299623],
        valueKind: 'summary',
      },
    ]);
    expect(parse('benchmarkjs', fixture('benchmarkjs/bench-slow.txt'))[0]!.values).toEqual([
      1129551,
    ]);
  });

  it('rejects truncated lines, empty output and mixed units', () => {
    const cut = formatError(() => parse('benchmarkjs', 'fib(20) x 11,465 ops/sec ±1.1'));
    expect(cut.where).toBe('line 1');
    expect(
      formatError(() => parse('benchmarkjs', 'TypeError: x is not a function\n')).message,
    ).toContain('no benchmark found');
    expect(
      formatError(() =>
        parse(
          'benchmarkjs',
          'a x 1 ops/sec ±1% (5 runs sampled)\na x 1 ops/min ±1% (5 runs sampled)',
        ),
      ).message,
    ).toContain('mixed units');
  });

  it('survives fuzzing with only FormatError', () => {
    fuzz('benchmarkjs', [real]);
  });
});
