import { analyzeSamples } from '../../src/analyze/analyze.js';
import { exitStatus } from '../../src/analyze/gate.js';
import { statusOf } from '../../src/analyze/report.js';
import { constant, pairedRun, timing, type MetricSpec } from './fixtures.js';

/** A go -benchmem run: X regressed 10%, Y unchanged, plus whatever memory metrics are given. */
function goRun(memory: MetricSpec[], pairs = 30) {
  return pairedRun([
    { pairs, metrics: [timing('BenchmarkX', 1.1, 1), timing('BenchmarkY', 1, 2), ...memory] },
  ]);
}

const SAME = [
  constant('BenchmarkX - B/op', 'B/op', 2048, 2048),
  constant('BenchmarkX - allocs/op', 'allocs/op', 12, 12),
  constant('BenchmarkY - allocs/op', 'allocs/op', 3, 3),
];

describe('analyzeSamples: metrics constant on each side are compared exactly', () => {
  it('equal allocs/op: exact, unchanged, outside the Holm family and not counted', () => {
    const report = analyzeSamples(goRun(SAME));
    const without = analyzeSamples(goRun([]));
    const x = report.results.find((r) => r.benchmark === 'BenchmarkX')!.comparison!;
    const xAlone = without.results.find((r) => r.benchmark === 'BenchmarkX')!.comparison!;
    // the family is {X, Y} either way: the allocs rows cost the timings nothing
    expect(x.test.pValueAdjusted).toBe(xAlone.test.pValueAdjusted);
    expect(x.test.pValueAdjusted).toBeCloseTo(Math.min(1, 2 * x.test.pValue), 12);
    expect(x.verdict).toBe('regression');
    const allocs = report.results.find((r) => r.benchmark === 'BenchmarkX - allocs/op')!;
    expect(allocs.exact).toEqual({ base: 12, head: 12 });
    expect(allocs.comparison).toMatchObject({
      change: 0,
      verdict: 'unchanged',
      test: { name: 'exact', pValue: 1, pValueAdjusted: 1, adjustment: 'none' },
      n: { base: 30, head: 30 },
      ci: { lower: 0, upper: 0, level: 0.99 },
    });
    expect(statusOf(allocs)).toBe('compared');
    // comparison.json keeps all three, the summary counts none of them
    expect(report.results.filter((r) => r.exact !== undefined)).toHaveLength(3);
    expect(report.summary).toEqual(without.summary);
    expect(report.summary).toMatchObject({ regression: 1, unchanged: 1, error: 0 });
  });

  it('one value per side is enough for a count: no "at least 2 values" error', () => {
    const report = analyzeSamples(goRun(SAME, 1));
    const byName = Object.fromEntries(report.results.map((r) => [r.benchmark, r]));
    expect(byName['BenchmarkX - allocs/op']!.exact).toEqual({ base: 12, head: 12 });
    expect(byName['BenchmarkX - allocs/op']!.error).toBeNull();
    expect(byName['BenchmarkX - B/op']!.comparison!.n).toEqual({ base: 1, head: 1 });
    // a timing with one value is not known to be constant: still the error it was
    expect(byName['BenchmarkX']!.error).toBe('base: needs at least 2 values, got 1');
    expect(report.summary).toMatchObject({ error: 2, unchanged: 0 });
  });

  it('allocs/op 2 → 3: an exact regression of +50% that fails fail-on regression', () => {
    const run = pairedRun([
      {
        pairs: 30,
        metrics: [
          timing('BenchmarkY', 1, 2),
          constant('BenchmarkY - allocs/op', 'allocs/op', 2, 3),
        ],
      },
    ]);
    const report = analyzeSamples(run);
    const allocs = report.results.find((r) => r.benchmark === 'BenchmarkY - allocs/op')!;
    expect(allocs.exact).toEqual({ base: 2, head: 3 });
    expect(allocs.comparison).toMatchObject({
      change: 0.5,
      ci: { lower: 0.5, upper: 0.5 },
      test: { name: 'exact', pValue: 0, pValueAdjusted: 0 },
      verdict: 'regression',
    });
    expect(report.summary).toMatchObject({ regression: 1, unchanged: 1 });
    expect(exitStatus(report, 'regression')).toBe(1);
    // Holm over Y alone: the exact regression is not a member
    const y = report.results.find((r) => r.benchmark === 'BenchmarkY')!.comparison!;
    expect(y.test.pValueAdjusted).toBe(y.test.pValue);
  });

  it('a timing constant on each side over ≥ 2 pairs is exact; with one value it is not', () => {
    const run = (pairs: number) => pairedRun([{ pairs, metrics: [constant('tick', 'ms', 4, 5)] }]);
    const many = analyzeSamples(run(5)).results[0]!;
    expect(many.exact).toEqual({ base: 4, head: 5 });
    expect(many.comparison!.verdict).toBe('regression');
    const one = analyzeSamples(run(1)).results[0]!;
    expect(one.exact).toBeUndefined();
    expect(one.error).toBe('base: needs at least 2 values, got 1');
  });

  it('a constant base of 0 against a head above it is not comparable, as before', () => {
    const run = pairedRun([
      { pairs: 3, metrics: [constant('X - allocs/op', 'allocs/op', 0, 2), timing('X', 1)] },
    ]);
    const r = analyzeSamples(run).results.find((x) => x.benchmark === 'X - allocs/op')!;
    expect(statusOf(r)).toBe('not-comparable');
    expect(r.notComparable!.reason).toBe(
      'base values are all 0: a relative change (head/base − 1) is undefined',
    );
  });

  it('only exact ties: they are the verdict (unchanged), not a run with nothing judged', () => {
    const run = pairedRun([{ pairs: 1, metrics: [constant('X - allocs/op', 'allocs/op', 7, 7)] }]);
    const report = analyzeSamples(run);
    expect(report.summary).toMatchObject({ unchanged: 1, error: 0 });
    expect(exitStatus(report, 'inconclusive')).toBe(0);
  });

  it('a count that varies (the first repetition allocates, the rest do not): the medians, exactly', () => {
    const firstOfFour = (b: number, h: number): MetricSpec => ({
      name: 'BenchmarkX - B/op',
      unit: 'B/op',
      value: (v, r) => (r % 4 === 0 ? 16 : v === 0 ? b : h),
    });
    const same = analyzeSamples(goRun([firstOfFour(0, 0)], 20));
    const bytes = same.results.find((r) => r.benchmark === 'BenchmarkX - B/op')!;
    expect(bytes.notComparable).toBeNull();
    expect(bytes.exact).toEqual({ base: 0, head: 0 });
    expect(bytes.comparison!.verdict).toBe('unchanged');
    expect(bytes.comparison!.notes).toContain(
      'the count varied between repetitions (base 0–16, head 0–16): compared as the median of each side',
    );
    const more = analyzeSamples(goRun([firstOfFour(64, 96)], 20));
    const grown = more.results.find((r) => r.benchmark === 'BenchmarkX - B/op')!;
    expect(grown.exact).toEqual({ base: 64, head: 96 });
    expect(grown.comparison!.verdict).toBe('regression');
    // a timing that varies is never taken for a count
    expect(more.results.find((r) => r.benchmark === 'BenchmarkX')!.exact).toBeUndefined();
  });
});
