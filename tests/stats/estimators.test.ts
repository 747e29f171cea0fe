import fc from 'fast-check';
import { median, mean } from '../../src/stats/descriptive.js';
import { pairedEstimator, sideEstimator } from '../../src/stats/estimators.js';
import { medianOfCounts, medianWithout } from '../../src/stats/order-statistics.js';

const positive = fc.double({ min: 0.001, max: 1e6, noNaN: true });
const data = fc.array(positive, { minLength: 2, maxLength: 40 });

/** The estimators' fast paths must equal the textbook definitions on the same resample. */
describe('estimators', () => {
  it('resampled statistics equal direct computation', () => {
    fc.assert(
      fc.property(data, fc.array(fc.nat(), { minLength: 40, maxLength: 40 }), (xs, picks) => {
        const idx = Int32Array.from(xs, (_, i) => picks[i]! % xs.length);
        const resample = Array.from(idx, (i) => xs[i]!);
        expect(sideEstimator(xs, 'median').onIndices(idx)).toBeCloseTo(median(resample), 9);
        expect(sideEstimator(xs, 'mean').onIndices(idx) / mean(resample)).toBeCloseTo(1, 12);
        const gm = Math.exp(mean(resample.map(Math.log)));
        expect(sideEstimator(xs, 'gmean').onIndices(idx) / gm).toBeCloseTo(1, 12);
      }),
    );
  });

  it('paired statistics are relative changes of the pair ratios', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(positive, positive), { minLength: 2, maxLength: 30 }),
        (pairs) => {
          const b = pairs.map((p) => p[0]);
          const h = pairs.map((p) => p[1]);
          const ratios = pairs.map(([x, y]) => y / x);
          // a relative change r − 1 carries absolute, not relative, precision near r = 0
          const near = (change: number, ratio: number) =>
            expect(Math.abs(change - (ratio - 1))).toBeLessThanOrEqual(1e-12 * Math.max(1, ratio));
          near(pairedEstimator(b, h, 'median').observed, Math.exp(median(ratios.map(Math.log))));
          near(pairedEstimator(b, h, 'gmean').observed, Math.exp(mean(ratios.map(Math.log))));
          const sum = (xs: number[]) => xs.reduce((s, v) => s + v, 0);
          near(pairedEstimator(b, h, 'mean').observed, sum(h) / sum(b));
        },
      ),
    );
  });

  it('jackknife leaves out each block in turn', () => {
    fc.assert(
      fc.property(data, fc.integer({ min: 1, max: 7 }), (xs, block) => {
        fc.pre(block < xs.length);
        for (const statistic of ['median', 'mean', 'gmean'] as const) {
          const jack = sideEstimator(xs, statistic).jackknife(block);
          expect(jack.length).toBe(Math.ceil(xs.length / block));
          jack.forEach((value, b) => {
            const rest = xs.filter((_, i) => i < b * block || i >= (b + 1) * block);
            if (rest.length === 0) return;
            const direct =
              statistic === 'median'
                ? median(rest)
                : statistic === 'mean'
                  ? mean(rest)
                  : Math.exp(mean(rest.map(Math.log)));
            expect(value / direct).toBeCloseTo(1, 10);
          });
        }
      }),
    );
  });

  it('order statistics helpers', () => {
    const asc = Float64Array.from([1, 2, 3, 4, 5]);
    expect(medianOfCounts(asc, Int32Array.from([0, 2, 0, 1, 1]), 4)).toBe(3); // 2,2,4,5
    expect(medianOfCounts(asc, Int32Array.from([3, 0, 0, 0, 0]), 3)).toBe(1);
    expect(medianWithout(asc, [0, 4])).toBe(3);
    expect(medianWithout(asc, [2])).toBe(3); // 1,2,4,5
    expect(medianWithout(asc, [])).toBe(3);
    expect(() => medianOfCounts(asc, Int32Array.from([1, 0, 0, 0, 0]), 3)).toThrow(/add up to 1/);
  });
});
