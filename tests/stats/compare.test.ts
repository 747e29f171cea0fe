import fc from 'fast-check';
import { compare } from '../../src/stats/compare.js';
import { adjustFamily } from '../../src/stats/family.js';
import { medianInterval } from '../../src/stats/median-interval.js';
import { createRng } from '../../src/stats/rng.js';

// values on a 1/128 grid: exact in binary, so ties are real ties and never rounding artefacts
const positive = fc.integer({ min: 1, max: 128_000 }).map((i) => i / 128);
const sample = fc.array(positive, { minLength: 4, maxLength: 25 });
const fast = { resamples: 400, seed: 3 };

function lognormal(n: number, median: number, sigma: number, seed: number): number[] {
  const rng = createRng(seed);
  return Array.from({ length: n }, () => median * Math.exp(sigma * rng.nextNormal()));
}

describe('compare: JSON contract', () => {
  it('produces the documented fields', () => {
    const base = lognormal(40, 100, 0.02, 1);
    const head = lognormal(40, 110, 0.02, 2);
    const c = compare(base, head, { seed: 42 });
    expect(c).toMatchObject({
      schemaVersion: 1,
      ci: { level: 0.99, method: 'bca', resamples: 10000, seed: 42, bootstrap: 'unpaired' },
      test: { name: 'mann-whitney-u', adjustment: 'none' },
      n: { base: 40, head: 40 },
      paired: false,
      statistic: 'median',
      threshold: 0.05,
      verdict: 'regression',
      seed: 42,
    });
    expect(c.change).toBeGreaterThan(0.08);
    expect(c.change).toBeLessThan(0.12);
    expect(c.ci.lower).toBeLessThan(c.change);
    expect(c.ci.upper).toBeGreaterThan(c.change);
    expect(c.test.pValue).toBeLessThan(1e-6);
    expect(c.test.pValueAdjusted).toBe(c.test.pValue);
    expect(c.mde).toBeGreaterThan(0);
    expect(JSON.parse(JSON.stringify(c))).toEqual(c);
  });

  it('pairs: geometric mean of ratios, Wilcoxon, block length recorded', () => {
    const base = lognormal(50, 100, 0.1, 5);
    const head = base.map((b, i) => b * 1.02 * Math.exp(0.002 * Math.sin(i)));
    const c = compare(base, head, { paired: true, statistic: 'gmean', seed: 1, threshold: 0 });
    expect(c.test.name).toBe('wilcoxon-signed-rank');
    expect(c.statistic).toBe('gmean');
    expect(c.change).toBeCloseTo(0.02, 2);
    expect(c.ci.lower).toBeGreaterThan(0.015);
    expect(c.ci.upper).toBeLessThan(0.025);
    expect(c.ci.blockLength).toBeGreaterThanOrEqual(1);
    expect(c.verdict).toBe('regression');
  });

  it('pairs by default: the trimmed mean of the log pair ratios, which one-sided spikes do not widen', () => {
    // 400 pairs of a +1% change; 15% of the values of each side, independently, 10–60% slower
    const rng = createRng(3);
    const base: number[] = [];
    const head: number[] = [];
    for (let i = 0; i < 400; i++) {
      const spike = () => (rng.nextFloat() < 0.15 ? 1.1 + 0.5 * rng.nextFloat() : 1);
      const common = Math.exp(0.05 * rng.nextNormal());
      base.push(10 * common * Math.exp(0.003 * rng.nextNormal()) * spike());
      head.push(10.1 * common * Math.exp(0.003 * rng.nextNormal()) * spike());
    }
    const byDefault = compare(base, head, { paired: true, seed: 1, threshold: 0 });
    const median = compare(base, head, {
      paired: true,
      statistic: 'median',
      seed: 1,
      threshold: 0,
    });
    const gmean = compare(base, head, { paired: true, statistic: 'gmean', seed: 1, threshold: 0 });
    expect(byDefault.statistic).toBe('trimmed');
    expect(byDefault.ci.direct).toBe('trimmed-t');
    // within 20% of the median's (widened) interval even with spikes on 15% of each side
    expect(byDefault.ci.upper - byDefault.ci.lower).toBeLessThan(
      1.2 * (median.ci.upper - median.ci.lower),
    );
    expect(median.ci.lower).toBeGreaterThan(0);
    expect(byDefault.change).toBeCloseTo(0.01, 3);
    expect(byDefault.ci.lower).toBeGreaterThan(0);
    expect(gmean.ci.lower).toBeLessThan(0); // the spikes hide the +1% from the mean
    const width = (c: typeof gmean) => c.ci.upper - c.ci.lower;
    expect(width(byDefault) * 5).toBeLessThan(width(gmean));
    // the MDE follows the statistic: robust spread for the median, SD for the mean
    expect(byDefault.mde * 5).toBeLessThan(gmean.mde);
    expect(byDefault.mde).toBeGreaterThan(0);
  });

  it('the paired median interval is never narrower than the order-statistic one', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.double({ min: 1, max: 2, noNaN: true }),
            fc.double({ min: 1, max: 2, noNaN: true }),
          ),
          {
            minLength: 10,
            maxLength: 60,
          },
        ),
        (pairs) => {
          const b = pairs.map((p) => p[0]);
          const h = pairs.map((p) => p[1]);
          const c = compare(b, h, {
            paired: true,
            statistic: 'median',
            resamples: 500,
            seed: 3,
            blockLength: 1,
          });
          const exact = medianInterval(
            Float64Array.from(pairs, ([x, y]) => Math.log(y / x)).sort(),
            0.99,
          );
          expect(c.ci.lower).toBeLessThanOrEqual(Math.expm1(exact.lower) + 1e-12);
          expect(c.ci.upper).toBeGreaterThanOrEqual(Math.expm1(exact.upper) - 1e-12);
        },
      ),
      { numRuns: 60 },
    );
    // a small sample: the bootstrap alone is too narrow, and the note says it was widened
    const c = compare(
      [10, 10.2, 9.9, 10.1, 10, 10.3, 9.8, 10, 10.1, 10.2],
      [10.1, 10.2, 10, 10.3, 10, 10.5, 9.9, 10.2, 10.1, 10.4],
      {
        paired: true,
        statistic: 'median',
        seed: 1,
      },
    );
    expect(c.notes.join('\n')).toMatch(
      /widened to the distribution-free one of the median pair ratio \(order statistics 1 and 10 of 10\)/,
    );
  });

  it('says inconclusive, with how many more samples, when the CI straddles the threshold', () => {
    const base = lognormal(12, 100, 0.08, 7);
    const head = lognormal(12, 105, 0.08, 8);
    const c = compare(base, head, { seed: 1 });
    expect(c.verdict).toBe('inconclusive');
    expect(c.moreSamplesNeeded === null || c.moreSamplesNeeded > 0).toBe(true);
  });

  it('bigger-is-better flips regression into improvement', () => {
    const base = lognormal(30, 100, 0.01, 1);
    const head = lognormal(30, 120, 0.01, 2);
    expect(compare(base, head, { ...fast }).verdict).toBe('regression');
    expect(compare(base, head, { ...fast, biggerIsBetter: true }).verdict).toBe('improvement');
  });

  it('identical constant data (0 allocations) is exactly unchanged', () => {
    const c = compare([0, 0, 0], [0, 0, 0, 0]);
    expect(c).toMatchObject({ change: 0, ci: { lower: 0, upper: 0 }, verdict: 'unchanged' });
    expect(c.notes[0]).toMatch(/every value on both sides is 0/);
  });

  it('rejects bad input with messages that name it', () => {
    expect(() => compare([1], [1, 2])).toThrow('base: needs at least 2 values, got 1');
    expect(() => compare([1, 2], [1, Number.NaN])).toThrow('head: value #2 is NaN');
    expect(() => compare([1, 2, 3], [1, 2], { paired: true })).toThrow(
      'a paired comparison needs as many head values as base values; base has 3, head has 2',
    );
    expect(() => compare([1, 0], [1, 2])).toThrow(
      'not comparable: 1 of 2 base values are 0: a relative change (head/base − 1) needs every base value above 0',
    );
    expect(() => compare([1, 2], [1, 2], { level: -0.5 })).toThrow('level must be between 0 and 1');
    expect(() => compare([1, 2], [1, 2], { resamples: 5 })).toThrow(
      'resamples must be an integer from 100',
    );
    expect(() => compare([1, 2], [1, 2], { seed: -1 })).toThrow('seed must be an integer');
    expect(() => compare([1, 2], [1, 2], { blockLength: 0 })).toThrow('blockLength must be');
  });
});

describe('compare: properties', () => {
  it('scaling both samples leaves the relative change, CI and test unchanged', () => {
    // powers of two scale exactly in binary floating point, so ties and order are preserved
    // and any difference would be the code's, not rounding's
    fc.assert(
      fc.property(sample, sample, fc.integer({ min: -20, max: 20 }), (b, h, j) => {
        const k = 2 ** j;
        const a = compare(b, h, fast);
        const s = compare(
          b.map((x) => x * k),
          h.map((x) => x * k),
          fast,
        );
        expect(s.change).toBeCloseTo(a.change, 12);
        expect(s.ci.lower).toBeCloseTo(a.ci.lower, 12);
        expect(s.ci.upper).toBeCloseTo(a.ci.upper, 12);
        expect(s.test.pValue).toBeCloseTo(a.test.pValue, 12);
        expect(s.verdict).toBe(a.verdict);
      }),
      { numRuns: 40 },
    );
  });

  it('swapping base and head inverts the change: (1 + c)(1 + c′) = 1', () => {
    fc.assert(
      fc.property(sample, sample, fc.boolean(), (b, h, paired) => {
        const hh = paired ? b.map((_, i) => h[i % h.length]!) : h;
        const forward = compare(b, hh, { ...fast, paired });
        const backward = compare(hh, b, { ...fast, paired });
        expect((1 + forward.change) * (1 + backward.change)).toBeCloseTo(1, 9);
        expect(backward.test.pValue).toBeCloseTo(forward.test.pValue, 9);
      }),
      { numRuns: 40 },
    );
  });

  it('the percentile CI contains the point estimate for smooth statistics', () => {
    fc.assert(
      fc.property(sample, sample, fc.boolean(), (b, h, paired) => {
        const hh = paired ? b.map((_, i) => h[i % h.length]!) : h;
        const c = compare(b, hh, {
          ...fast,
          paired,
          statistic: paired ? 'gmean' : 'mean',
          method: 'percentile',
        });
        expect(c.ci.lower).toBeLessThanOrEqual(c.change + 1e-12);
        expect(c.ci.upper).toBeGreaterThanOrEqual(c.change - 1e-12);
        expect(c.test.pValue).toBeGreaterThanOrEqual(0);
        expect(c.test.pValue).toBeLessThanOrEqual(1);
      }),
      { numRuns: 40 },
    );
  });

  it('family adjustment: Holm-adjusted p ≥ raw p and verdicts only get more cautious', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(sample, sample), { minLength: 1, maxLength: 6 }), (pairs) => {
        const raw = pairs.map(([b, h]) => compare(b, h, { ...fast, threshold: 0 }));
        const adjusted = adjustFamily(raw, 'holm');
        adjusted.forEach((c, i) => {
          expect(c.test.pValueAdjusted).toBeGreaterThanOrEqual(raw[i]!.test.pValue);
          expect(c.test.adjustment).toBe('holm');
          if (raw[i]!.verdict === 'inconclusive') expect(c.verdict).toBe('inconclusive');
        });
      }),
      { numRuns: 30 },
    );
  });
});

describe('compare: when paired pairs are resampled in blocks (blockLength auto)', () => {
  // fastjson's ObjectGet/items_100/lookups_2 in a 5-minute duet: 60 pairs within ±4% but for a
  // few seconds of wild ones in a row
  const burst = [
    -0.5, -1.7, -2.1, 0.8, -1.7, 1.0, 1.7, -0.7, 2.8, -1.1, 0.2, -4.3, 1.8, 0.8, 1.6, -53.1, 8.4,
    52.3, -19.2, -51.9, 0.4, -1.4, 0.3, -0.0, 1.5, 0.4, -2.3, -1.4, -0.6, -0.2, 1.7, 2.6, 3.2, 2.1,
    -1.2, 3.0, -13.2, -1.1, -0.6, 1.8, 0.0, 0.0, -1.7, -0.9, -0.1, -0.9, -1.3, 2.4, 0.0, -1.3, -0.9,
    -1.0, -2.2, -2.9, -0.4, -0.8, -0.4, -1.4, -0.9, 0.9,
  ];
  const pairsOf = (logPercent: number[]) => ({
    base: logPercent.map(() => 1000),
    head: logPercent.map((x) => 1000 * Math.exp(x / 100)),
  });

  it('judges the trimmed mean on the dependence of the winsorized pairs, not of a burst it trims', () => {
    const { base, head } = pairsOf(burst);
    const trimmed = compare(base, head, { paired: true, seed: 1, test: 'trimmed-t' });
    expect(trimmed.ci.blockLength ?? 1).toBe(1);
    expect(trimmed.ci.upper - trimmed.ci.lower).toBeLessThan(0.03);
    expect(trimmed.verdict).toBe('unchanged');
    // the geometric mean feels every pair: for it the burst is dependence, and blocks it gets
    const gmean = compare(base, head, {
      paired: true,
      seed: 1,
      statistic: 'gmean',
      resamples: 1000,
    });
    expect(gmean.ci.blockLength).toBeGreaterThan(1);
  });

  it('still blocks a trimmed mean whose pairs drift together', () => {
    const rng = createRng(9);
    let x = 0;
    const drift = Array.from({ length: 200 }, () => (x = 0.9 * x + rng.nextNormal()));
    const { base, head } = pairsOf(drift);
    const c = compare(base, head, { paired: true, seed: 1, test: 'trimmed-t' });
    expect(c.ci.blockLength).toBeGreaterThan(5);
  });
});
