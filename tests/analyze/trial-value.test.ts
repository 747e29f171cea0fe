import fc from 'fast-check';
import { comparisonInput } from '../../src/analyze/blocks.js';
import type { BenchmarkSeries } from '../../src/analyze/series.js';
import { isCountUnit, trialValue } from '../../src/analyze/trial-value.js';

describe("a trial's one value from its several", () => {
  it('is the fastest of timed parts: the least time, the most throughput', () => {
    const parts = [62_000, 31_200, 31_000, 58_000];
    expect(trialValue(parts, { unit: 'ns/op', biggerIsBetter: false, reduce: 'fastest' })).toBe(
      31_000,
    );
    expect(
      trialValue([410, 455, 402], { unit: 'MB/s', biggerIsBetter: true, reduce: 'fastest' }),
    ).toBe(455);
  });

  it('is the median without `reduce`, and for counts whatever it says', () => {
    expect(trialValue([5, 1, 3, 100], { unit: 'ns/op', biggerIsBetter: false })).toBe(4);
    // a process's first part allocates what the later ones do not: the count is the median
    expect(
      trialValue([96, 0, 0, 0, 0], { unit: 'B/op', biggerIsBetter: false, reduce: 'fastest' }),
    ).toBe(0);
    expect(
      trialValue([3, 2, 2], { unit: 'allocs/op', biggerIsBetter: false, reduce: 'fastest' }),
    ).toBe(2);
    expect(isCountUnit('allocs/op')).toBe(true);
    expect(isCountUnit('ns/op')).toBe(false);
    expect(isCountUnit('KiB')).toBe(false);
  });

  it('is the value itself when there is one, and refuses none', () => {
    expect(trialValue([7], { unit: 'ns', biggerIsBetter: false, reduce: 'fastest' })).toBe(7);
    expect(() => trialValue([], { unit: 'ns', biggerIsBetter: false })).toThrow(
      'a trial value needs at least one value',
    );
  });

  it('lies between the smallest and largest value, and never above the median for time', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 1, max: 1e9, noNaN: true }), { minLength: 1 }), (v) => {
        const fastest = trialValue(v, { unit: 'ns', biggerIsBetter: false, reduce: 'fastest' });
        const median = trialValue(v, { unit: 'ns', biggerIsBetter: false });
        expect(fastest).toBe(Math.min(...v));
        expect(fastest).toBeLessThanOrEqual(median);
        expect(median).toBeLessThanOrEqual(Math.max(...v));
      }),
    );
  });
});

describe('a paired comparison of trials with timed parts', () => {
  const series = (reduce?: 'fastest'): BenchmarkSeries => ({
    name: 'BenchmarkA',
    unit: 'ns/op',
    biggerIsBetter: false,
    valueKind: 'samples',
    positional: false,
    ...(reduce === undefined ? {} : { reduce }),
    byVersion: [
      new Map([
        [0, [20, 10, 11]],
        [1, [12, 24, 25]],
      ]),
      new Map([
        [0, [11, 22, 21]],
        [1, [13, 13, 26]],
      ]),
    ],
  });

  it("pairs each round's fastest parts", () => {
    const input = comparisonInput(series('fastest'), 0, 1, true);
    expect(input.base).toEqual([10, 12]);
    expect(input.head).toEqual([11, 13]);
    expect(input.rounds).toEqual([0, 1]);
  });

  it("pairs each round's medians without it, as before", () => {
    const input = comparisonInput(series(), 0, 1, true);
    expect(input.base).toEqual([11, 24]);
    expect(input.head).toEqual([21, 13]);
  });
});
