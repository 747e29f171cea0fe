import { fixture, formatError, fuzz, parse } from './helpers.js';

const synthetic = fixture('benchmarkluau/bench.txt');

describe('benchmarkluau format (synthetic fixture)', () => {
  it('reads SUCCESS lines, converting every unit to ms', () => {
    expect(parse('benchmarkluau', synthetic)).toEqual([
      {
        name: 'fib-recursive',
        unit: 'ms',
        biggerIsBetter: false,
        values: [12.48],
        valueKind: 'summary',
      },
      {
        name: 'string-concat',
        unit: 'ms',
        biggerIsBetter: false,
        values: [850.25 * 1e-3],
        valueKind: 'summary',
      },
      {
        name: 'table-insert',
        unit: 'ms',
        biggerIsBetter: false,
        values: [1375],
        valueKind: 'summary',
      },
    ]);
  });

  it('rejects failures, truncation and empty output', () => {
    expect(formatError(() => parse('benchmarkluau', 'SUCCESS: base64 : 15.0')).where).toBe(
      'line 1',
    );
    expect(
      formatError(() => parse('benchmarkluau', 'FAILED: base64 (timeout)\n')).message,
    ).toContain('a benchmark failed');
    expect(formatError(() => parse('benchmarkluau', '\n')).message).toContain('no benchmark found');
  });

  it('survives fuzzing with only FormatError', () => {
    fuzz('benchmarkluau', [synthetic]);
  });
});
