import { byName, fixture, formatError, fuzz, parse } from './helpers.js';

const full = fixture('benchmarkdotnet/full.json');
const brief = fixture('benchmarkdotnet/brief.json');
const SUMS = 'Duetkit.Bench.SumsBenchmark.SumSquares';
const JOIN = 'Duetkit.Bench.SumsBenchmark.JoinWords';

describe('benchmarkdotnet format (synthetic fixtures)', () => {
  it('keeps the Result-stage measurements in ns per operation', () => {
    const result = parse('benchmarkdotnet', full);
    expect(byName(result, SUMS)).toEqual({
      name: SUMS,
      unit: 'ns',
      biggerIsBetter: false,
      values: [412.5, 409.75, 415, 411.25, 408.5],
      valueKind: 'samples',
    });
    expect(byName(result, JOIN).values).toEqual([1520, 1498.5, 1533.25, 1510]);
    expect(byName(result, `${JOIN} - Allocated Memory`)).toMatchObject({
      unit: 'B',
      values: [1064],
      biggerIsBetter: false,
    });
    expect(byName(result, `${JOIN} - Gen0Collects`)).toMatchObject({
      unit: 'Count',
      values: [0.0812],
    });
  });

  it('uses OriginalValues, then the Mean, in a brief export', () => {
    const result = parse('benchmarkdotnet', brief);
    expect(byName(result, SUMS)).toMatchObject({
      values: [412.5, 409.75, 415, 411.25, 408.5],
      valueKind: 'samples',
    });
    expect(byName(result, JOIN)).toMatchObject({ values: [1515.4375], valueKind: 'summary' });
  });

  it('rejects failed benchmarks and bad values', () => {
    const json = JSON.parse(full);
    json.Benchmarks[1].Statistics = null;
    expect(formatError(() => parse('benchmarkdotnet', JSON.stringify(json))).where).toBe(
      '$.Benchmarks[1].Statistics',
    );
    expect(formatError(() => parse('benchmarkdotnet', '{"Benchmarks": []}')).message).toContain(
      'no benchmark found',
    );
    const zero = JSON.parse(full);
    zero.Benchmarks[0].Measurements[8].Operations = 0;
    expect(formatError(() => parse('benchmarkdotnet', JSON.stringify(zero))).expected).toContain(
      'positive',
    );
  });

  it('survives fuzzing with only FormatError', () => {
    fuzz('benchmarkdotnet', [full, brief]);
  });
});
