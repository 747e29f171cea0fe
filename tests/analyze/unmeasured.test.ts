import { analyzeSamples, largestHalfWidth } from '../../src/analyze/analyze.js';
import { exitStatus } from '../../src/analyze/gate.js';
import { statusOf } from '../../src/analyze/report.js';
import type { BenchmarkResult } from '../../src/contracts/comparison.js';
import { asSuite, pairedRun, timing } from './fixtures.js';

const ONE_PAIR = 'only 1 pair within the budget (120 s): at least 2 are needed for an interval';
const NO_PAIR =
  'not measured within the budget (120 s): 0 pairs; the budget ran out before it was reached';

/** A: 25 pairs (judged at the first look, 20), B: 1 pair, C: never reached. */
function budgetSuite(stopReason: 'budget' | 'failed' = 'budget', ratio = 1) {
  const run = pairedRun(
    [
      { benchmark: 'BenchmarkA', pairs: 25, metrics: [timing('BenchmarkA', ratio)] },
      { benchmark: 'BenchmarkB', pairs: 1, metrics: [timing('BenchmarkB', 1)] },
    ],
    { stopReason, budget: 120, ...(stopReason === 'failed' ? { error: 'boom' } : {}) },
  );
  return asSuite(run, [
    { name: 'BenchmarkA', pairs: 25, stopReason: 'iterations' },
    { name: 'BenchmarkB', pairs: 1, stopReason: 'budget' },
    { name: 'BenchmarkC', pairs: 0, stopReason: 'iterations' },
  ]);
}

/** Exactly one of comparison, notComparable, error and unmeasured is set. */
function setFields(r: BenchmarkResult): string[] {
  return (['comparison', 'notComparable', 'error', 'unmeasured'] as const).filter(
    (k) => r[k] != null,
  );
}

describe('analyzeSamples: benchmarks the budget did not measure', () => {
  it('a suite unit with 1 pair and one with 0 are unmeasured, not errors', () => {
    const report = analyzeSamples(budgetSuite());
    expect(report.results.map((r) => [r.benchmark, statusOf(r)])).toEqual([
      ['BenchmarkA', 'compared'],
      ['BenchmarkB', 'unmeasured'],
      ['BenchmarkC', 'unmeasured'],
    ]);
    const [a, b, c] = report.results;
    expect(a!.comparison!.n.base).toBe(20); // the first look's pairs
    expect(b).toMatchObject({ comparison: null, error: null, notComparable: null });
    expect(b!.unmeasured).toBe(ONE_PAIR);
    expect(c!.unmeasured).toBe(NO_PAIR);
    for (const r of report.results) expect(setFields(r)).toHaveLength(1);
    expect(report.summary).toEqual({
      regression: 0,
      improvement: 0,
      unchanged: 1,
      inconclusive: 0,
      notComparable: 0,
      error: 0,
      unmeasured: 2,
    });
    expect(report.schemaVersion).toBe(4);
    // the unmeasured ones are no tests: the family is A alone
    expect(a!.comparison!.test.pValueAdjusted).toBe(a!.comparison!.test.pValue);
  });

  it('gates: regression passes, inconclusive fails, never passes (CLI exit status)', () => {
    const report = analyzeSamples(budgetSuite());
    expect(exitStatus(report, 'regression')).toBe(0);
    expect(exitStatus(report, 'inconclusive')).toBe(1);
    expect(exitStatus(report, 'never')).toBe(0);
    const regressed = analyzeSamples(budgetSuite('budget', 1.2));
    expect(regressed.summary).toMatchObject({ regression: 1, unmeasured: 2 });
    expect(exitStatus(regressed, 'regression')).toBe(1);
  });

  it('a unit the budget cut short is unmeasured even when the run ended on precision', () => {
    const run = pairedRun(
      [{ benchmark: 'BenchmarkB', pairs: 1, metrics: [timing('BenchmarkB', 1)] }],
      { stopReason: 'precision', budget: 120 },
    );
    const suite = asSuite(run, [{ name: 'BenchmarkB', pairs: 1, stopReason: 'budget' }]);
    expect(analyzeSamples(suite).results[0]!.unmeasured).toBe(ONE_PAIR);
    // the same pair in a run nothing cut short is still the error it always was
    const plain = asSuite(run, [{ name: 'BenchmarkB', pairs: 1, stopReason: 'iterations' }]);
    const r = analyzeSamples(plain).results[0]!;
    expect(statusOf(r)).toBe('error');
    expect(r.error).toBe('base: needs at least 2 values, got 1');
    expect(r.unmeasured).toBeNull();
  });

  it('a budget-stopped run without a suite: a metric with 1 pair is unmeasured', () => {
    const run = pairedRun([{ pairs: 1, metrics: [timing('time', 1)] }], {
      stopReason: 'budget',
      budget: 30,
    });
    const r = analyzeSamples(run).results[0]!;
    expect(r.unmeasured).toBe(
      'only 1 pair within the budget (30 s): at least 2 are needed for an interval',
    );
    expect(analyzeSamples(run).summary).toMatchObject({ unmeasured: 1, error: 0 });
  });

  it('a unit a failed run never reached is an error naming the failure, not the budget', () => {
    const report = analyzeSamples(budgetSuite('failed'));
    const c = report.results.find((r) => r.benchmark === 'BenchmarkC')!;
    expect(statusOf(c)).toBe('error');
    expect(c.error).toBe('not measured: the run failed before it was reached (boom)');
    expect(c.unmeasured).toBeNull();
    // B's own unit stopped on the budget before the failure: still unmeasured
    expect(report.results.find((r) => r.benchmark === 'BenchmarkB')!.unmeasured).toBe(ONE_PAIR);
    expect(report.summary).toMatchObject({ error: 1, unmeasured: 1 });
    expect(exitStatus(report, 'regression')).toBe(1);
  });

  it('nothing measured at all: no error, no verdict, fails only fail-on inconclusive', () => {
    const run = pairedRun([], { stopReason: 'budget', budget: 120 });
    const report = analyzeSamples(
      asSuite(run, [
        { name: 'BenchmarkA', pairs: 0, stopReason: 'iterations' },
        { name: 'BenchmarkB', pairs: 0, stopReason: 'iterations' },
      ]),
    );
    expect(report.results.map((r) => r.unmeasured)).toEqual([NO_PAIR, NO_PAIR]);
    expect(report.summary).toMatchObject({ unchanged: 0, error: 0, unmeasured: 2 });
    expect(exitStatus(report, 'regression')).toBe(0);
    expect(exitStatus(report, 'inconclusive')).toBe(1);
  });

  it('precision-based stopping has no width while a benchmark is unmeasured', () => {
    expect(largestHalfWidth(budgetSuite())).toBeNull();
  });
});
