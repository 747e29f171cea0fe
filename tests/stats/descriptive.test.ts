import fc from 'fast-check';
import {
  coefficientOfVariation,
  geometricMean,
  mean,
  median,
  medianAbsoluteDeviation,
  medianInPlace,
  quantile,
  standardDeviation,
} from '../../src/stats/descriptive.js';
import { Sample } from '../../src/stats/sample.js';

describe('descriptive statistics', () => {
  it('match hand-computed values', () => {
    const xs = [2, 4, 4, 4, 5, 5, 7, 9];
    expect(mean(xs)).toBe(5);
    expect(standardDeviation(xs)).toBeCloseTo(Math.sqrt(32 / 7), 14);
    expect(coefficientOfVariation(xs)).toBeCloseTo(Math.sqrt(32 / 7) / 5, 14);
    expect(median(xs)).toBe(4.5);
    expect(medianAbsoluteDeviation(xs)).toBe(0.5); // |dev| = 2.5 .5 .5 .5 .5 .5 2.5 4.5
    expect(geometricMean([1, 10, 100])).toBeCloseTo(10, 12);
    expect(geometricMean([1, 0, 3])).toBeNull();
  });

  it('quantiles use linear interpolation (Hyndman & Fan type 7, numpy default)', () => {
    const xs = [15, 20, 35, 40, 50];
    // numpy.percentile(xs, [0, 10, 25, 40, 90, 100]) = 15, 17, 20, 29, 46, 50
    expect([0, 0.1, 0.25, 0.4, 0.9, 1].map((p) => quantile(xs, p))).toEqual([
      15, 17, 20, 29, 46, 50,
    ]);
    expect(() => quantile(xs, 1.5)).toThrow('quantile: p must be in [0, 1], got 1.5');
  });

  it('quickselect median equals the sorted median', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.integer({ min: -1e9, max: 1e9 }).map((i) => i / 1024),
          { minLength: 1, maxLength: 60 },
        ),
        (xs) => {
          // === treats 0 and -0 alike, as the median does
          expect(medianInPlace(Float64Array.from(xs)) === median(xs)).toBe(true);
        },
      ),
    );
  });
});

describe('Sample', () => {
  it('refuses fewer than two values, NaN and infinities, naming the value', () => {
    expect(() => new Sample([1], 'base')).toThrow('base: needs at least 2 values, got 1');
    expect(() => new Sample([], 'head')).toThrow('head: needs at least 2 values, got 0');
    expect(() => new Sample([1, Number.NaN, 2], 'base')).toThrow(
      'base: value #2 is NaN; only finite numbers are accepted',
    );
    expect(() => new Sample([1, 2, Infinity], 'x')).toThrow('x: value #3 is Infinity');
    expect(() => new Sample([-Infinity, 2], 'x')).toThrow('x: value #1 is -Infinity');
  });

  it('summarises', () => {
    const s = new Sample([3, 1, 2, 4]);
    expect(s.ascending).toEqual(Float64Array.from([1, 2, 3, 4]));
    expect(s.summary()).toMatchObject({ n: 4, median: 2.5, mean: 2.5, min: 1, max: 4 });
    expect(s.values).toEqual([3, 1, 2, 4]);
    expect(Object.isFrozen(s.values)).toBe(true);
  });
});
