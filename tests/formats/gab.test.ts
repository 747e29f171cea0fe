import { toGab } from '../../src/formats/gab.js';
import type { Comparison, SideSummary } from '../../src/stats/types.js';

function side(median: number, extra: Partial<SideSummary> = {}): SideSummary {
  return {
    n: 30,
    median,
    mean: median * 1.01,
    gmean: median,
    sd: median / 10,
    cv: 0.1,
    mad: 1,
    min: 0,
    max: 0,
    ...extra,
  };
}

function comparison(biggerIsBetter: boolean, overrides: Partial<Comparison> = {}): Comparison {
  return {
    schemaVersion: 1,
    change: 0.1234,
    ci: {
      level: 0.99,
      lower: 0.05,
      upper: 0.2,
      method: 'bca',
      resamples: 10000,
      seed: 42,
      bootstrap: 'paired',
      blockLength: 1,
    },
    test: {
      name: 'wilcoxon-signed-rank',
      method: 'exact',
      statistic: 3,
      pValue: 0.001,
      pValueAdjusted: 0.002,
      adjustment: 'holm',
    },
    ks: { statistic: 0.5, pValue: 0.01, method: 'exact' },
    n: { base: 30, head: 30 },
    cv: { base: 0.1, head: 0.1 },
    base: side(100),
    head: side(112.34),
    paired: true,
    statistic: 'median',
    biggerIsBetter,
    threshold: 0.05,
    mde: 0.03,
    power: 0.8,
    verdict: 'regression',
    moreSamplesNeeded: null,
    seed: 42,
    notes: [],
    ...overrides,
  };
}

describe('toGab', () => {
  it('splits comparisons by direction into the two custom JSON lists', () => {
    const out = toGab([
      { name: 'parse', unit: 'ns', comparison: comparison(false) },
      {
        name: 'throughput',
        unit: 'ops/s',
        comparison: comparison(true, { verdict: 'improvement' }),
      },
    ]);
    expect(out.customSmallerIsBetter).toHaveLength(1);
    expect(out.customBiggerIsBetter).toHaveLength(1);
    const [entry] = out.customSmallerIsBetter;
    expect(entry).toMatchObject({ name: 'parse', unit: 'ns', value: 112.34, range: '± 11.234' });
    expect(entry!.extra).toBe(
      [
        'change: +12.34% (99% CI +5.00% to +20.00%, bca, 10000 resamples, seed 42)',
        'verdict: regression (threshold +5.00%)',
        'n: base 30, head 30 (paired); statistic: median',
        'base: 100 ns',
      ].join('\n'),
    );
    expect(out.customBiggerIsBetter[0]!.extra).toContain('verdict: improvement');
  });

  it('reports the statistic the comparison used', () => {
    const mean = toGab([
      { name: 'a', unit: 's', comparison: comparison(false, { statistic: 'mean' }) },
    ]);
    expect(mean.customSmallerIsBetter[0]!.value).toBe(113.463);
    const gmean = comparison(false, { statistic: 'gmean', head: side(50, { gmean: null }) });
    expect(
      toGab([{ name: 'a', unit: 's', comparison: gmean }]).customSmallerIsBetter[0]!.value,
    ).toBe(50);
  });

  it('exports a benchmark that is not comparable with its head value, in report order', () => {
    const out = toGab([
      {
        name: 'cmd - system',
        unit: 's',
        notComparable: {
          reason: 'base values are all 0: a relative change (head/base − 1) is undefined',
          statistic: 'mean',
          base: side(0, { mean: 0, n: 10 }),
          head: side(0, { mean: 0.0002, sd: 0.0001, n: 10 }),
        },
        biggerIsBetter: false,
      },
      { name: 'cmd', unit: 's', comparison: comparison(false) },
      {
        name: 'rate',
        unit: 'ops/s',
        notComparable: {
          reason: 'head value #1 is -1: ...',
          statistic: 'median',
          base: side(5),
          head: side(-1),
        },
        biggerIsBetter: true,
      },
    ]);
    expect(out.customSmallerIsBetter.map((e) => e.name)).toEqual(['cmd - system', 'cmd']);
    expect(out.customSmallerIsBetter[0]).toEqual({
      name: 'cmd - system',
      unit: 's',
      value: 0.0002,
      range: '± 0.0001',
      extra: [
        'change: not comparable (base values are all 0: a relative change (head/base − 1) is undefined)',
        'n: base 10, head 10; statistic: mean',
        'base: 0 s',
      ].join('\n'),
    });
    expect(out.customBiggerIsBetter[0]).toMatchObject({ name: 'rate', value: -1 });
  });

  it('gives empty lists for no comparisons, as plain JSON', () => {
    expect(JSON.parse(JSON.stringify(toGab([])))).toEqual({
      customSmallerIsBetter: [],
      customBiggerIsBetter: [],
    });
  });
});
