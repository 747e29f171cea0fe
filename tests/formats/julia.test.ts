import { byName, fixture, formatError, fuzz, parse } from './helpers.js';

const trial = fixture('julia/trial.json');
const estimate = fixture('julia/estimate.json');

describe('julia format (synthetic fixtures)', () => {
  it('keeps every sample of a saved Trial, with memory and allocations', () => {
    const result = parse('julia', trial);
    expect(byName(result, 'fib/20')).toEqual({
      name: 'fib/20',
      unit: 'ns',
      biggerIsBetter: false,
      values: [31028, 30911, 31544, 30987, 31120],
      valueKind: 'samples',
    });
    expect(byName(result, 'sort').values).toEqual([5421, 5380.5, 6702.25]);
    expect(byName(result, 'sort - memory')).toMatchObject({ unit: 'B', values: [8048] });
    expect(byName(result, 'sort - allocs').values).toEqual([2]);
  });

  it('reads a TrialEstimate as a summary', () => {
    expect(byName(parse('julia', estimate), 'fib/10')).toMatchObject({
      values: [246.03846153846155],
      valueKind: 'summary',
    });
  });

  it('rejects unknown node types and bad values with their JSON path', () => {
    const json = JSON.parse(trial);
    json[1][0][1].data.sort[0] = 'Mystery';
    expect(formatError(() => parse('julia', JSON.stringify(json))).where).toBe(
      '$[1][0][1].data.sort[0]',
    );
    expect(formatError(() => parse('julia', '[{"Julia": "1.10"}, []]')).message).toContain(
      'no benchmark found',
    );
    expect(formatError(() => parse('julia', trial.slice(0, 300))).where).toMatch(/^line \d+$/);
  });

  it('survives fuzzing with only FormatError', () => {
    fuzz('julia', [trial, estimate]);
  });
});
