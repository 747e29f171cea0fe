import { fixture, formatError, fuzz, parse } from './helpers.js';

const smaller = fixture('custom/smaller.json');
const bigger = fixture('custom/bigger.json');

describe('customSmallerIsBetter / customBiggerIsBetter formats', () => {
  it('reads a real program’s custom JSON with the direction from the format name', () => {
    expect(parse('customSmallerIsBetter', smaller)).toEqual([
      {
        name: 'sumSquares(1000)',
        unit: 'ns',
        biggerIsBetter: false,
        values: [1325],
        valueKind: 'summary',
      },
      {
        name: 'joinWords(64)',
        unit: 'ns',
        biggerIsBetter: false,
        values: [4991],
        valueKind: 'summary',
      },
    ]);
    expect(parse('customBiggerIsBetter', bigger)[0]).toEqual({
      name: 'sumSquares(1000)',
      unit: 'ops/s',
      biggerIsBetter: true,
      values: [568521],
      valueKind: 'summary',
    });
  });

  it('rejects entries without a unit, NaN values and empty arrays', () => {
    expect(
      formatError(() => parse('customSmallerIsBetter', '[{"name": "a", "value": 1}]')).where,
    ).toBe('$[0].unit');
    expect(
      formatError(() =>
        parse('customBiggerIsBetter', '[{"name": "a", "value": "NaN", "unit": "x"}]'),
      ).where,
    ).toBe('$[0].value');
    expect(formatError(() => parse('customSmallerIsBetter', '[]')).message).toContain(
      'no benchmark found',
    );
  });

  it('survives fuzzing with only FormatError', () => {
    fuzz('customSmallerIsBetter', [smaller]);
    fuzz('customBiggerIsBetter', [bigger]);
  });
});
