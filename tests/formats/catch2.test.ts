import { fixture, formatError, fuzz, parse } from './helpers.js';

const real = fixture('catch2/bench.txt');

describe('catch2 format', () => {
  it('reads the mean of each benchmark of the real Catch2 report, in ns', () => {
    expect(parse('catch2', real)).toEqual([
      {
        name: 'sum_squares 1000',
        unit: 'ns',
        biggerIsBetter: false,
        values: [546.733],
        valueKind: 'summary',
      },
      {
        name: 'join_words 64',
        unit: 'ns',
        biggerIsBetter: false,
        values: [490.554],
        valueKind: 'summary',
      },
    ]);
  });

  it('converts the unit Catch2 picked for the run (us in the slow run) to ns', () => {
    const slow = parse('catch2', fixture('catch2/bench-slow.txt'));
    expect(slow[0]!.values[0]).toBeCloseTo(1156.14, 6);
    expect(slow[0]!.unit).toBe('ns');
  });

  it('joins names Catch2 wrapped over several lines', () => {
    const lines = real.split('\n');
    const at = lines.findIndex((l) => l.startsWith('join_words 64'));
    lines.splice(at, 1, 'join_words', lines[at]!.replace('join_words 64', '64           '));
    expect(parse('catch2', lines.join('\n'))[1]!.name).toBe('join_words 64');
  });

  it('rejects truncated output, failures and empty reports', () => {
    const cut = real.slice(0, real.indexOf('1.69765'));
    const truncated = formatError(() => parse('catch2', cut));
    expect(truncated.expected).toContain('standard deviation');
    expect(truncated.where).toMatch(/^line \d+$/);
    expect(
      formatError(() => parse('catch2', "No test cases matched '[nothing]'\n")).message,
    ).toContain('no benchmark found');
    const failed = real.replace('test cases: 1 | 1 passed', 'test cases: 1 | 1 failed');
    expect(formatError(() => parse('catch2', failed)).message).toContain(
      'Catch2 reported a failure',
    );
    const nan = real.replace('546.733 ns', 'nan ns');
    expect(formatError(() => parse('catch2', nan)).expected).toContain('mean');
  });

  it('survives fuzzing with only FormatError', () => {
    fuzz('catch2', [real]);
  });
});
