import { gateFailure, overallVerdict } from '../../src/action/gate.js';
import { analyzeSamples } from '../../src/analyze/analyze.js';
import { gateTally } from '../../src/analyze/gate.js';
import { asSuite, constant, pairedRun, timing } from '../analyze/fixtures.js';

const NONE = {
  regression: 0,
  improvement: 0,
  unchanged: 0,
  inconclusive: 0,
  notComparable: 0,
  error: 0,
};

/** Suite: A compared (unchanged, or +20% with `ratio`), B 1 pair and C none under the budget. */
function suite(ratio = 1) {
  const run = pairedRun(
    [
      { benchmark: 'BenchmarkA', pairs: 25, metrics: [timing('BenchmarkA', ratio)] },
      { benchmark: 'BenchmarkB', pairs: 1, metrics: [timing('BenchmarkB', 1)] },
    ],
    { stopReason: 'budget', budget: 120 },
  );
  return analyzeSamples(
    asSuite(run, [
      { name: 'BenchmarkA', pairs: 25, stopReason: 'iterations' },
      { name: 'BenchmarkB', pairs: 1, stopReason: 'budget' },
      { name: 'BenchmarkC', pairs: 0, stopReason: 'iterations' },
    ]),
  );
}

describe('the gate and benchmarks the budget did not measure', () => {
  it('overall verdict: unmeasured makes it inconclusive, unless something regressed or failed', () => {
    expect(overallVerdict({ ...NONE, unchanged: 1, unmeasured: 2 })).toBe('inconclusive');
    expect(overallVerdict({ ...NONE, improvement: 1, unmeasured: 1 })).toBe('inconclusive');
    expect(overallVerdict({ ...NONE, regression: 1, unmeasured: 1 })).toBe('regression');
    expect(overallVerdict({ ...NONE, unchanged: 1, error: 1, unmeasured: 1 })).toBe('error');
    // nothing measured at all: the run did not measure, it did not break
    expect(overallVerdict({ ...NONE, unmeasured: 3 })).toBe('inconclusive');
    // a version 2 summary has no `unmeasured`: as before
    expect(overallVerdict({ ...NONE, unchanged: 2 })).toBe('unchanged');
    expect(overallVerdict({ ...NONE })).toBe('error');
  });

  it('fail-on regression passes with unmeasured results; inconclusive fails and names them', () => {
    const report = suite();
    expect(overallVerdict(report.summary)).toBe('inconclusive');
    expect(gateFailure(report, 'regression')).toBeNull();
    expect(gateFailure(report, 'never')).toBeNull();
    expect(gateFailure(report, 'inconclusive')).toBe(
      'duetkit: not measured within the budget (fail-on: inconclusive): BenchmarkB, BenchmarkC',
    );
    expect(gateTally(report.summary, 'regression')).toEqual({
      verdicts: 0,
      unmeasured: 0,
      broken: false,
    });
    expect(gateTally(report.summary, 'inconclusive')).toEqual({
      verdicts: 0,
      unmeasured: 2,
      broken: false,
    });
  });

  it('a regression still fails fail-on regression beside unmeasured results', () => {
    const report = suite(1.2);
    expect(gateFailure(report, 'regression')).toMatch(
      /^duetkit: 1 benchmark regressed beyond the ±5\.00% threshold: BenchmarkA \+\d+\.\d+% \[.*\] regression$/,
    );
  });

  it('a real error still fails, whatever the unmeasured ones do', () => {
    const run = pairedRun([{ pairs: 1, metrics: [timing('BenchmarkA', 1)] }]);
    const report = analyzeSamples(run); // one pair, and no budget stopped it: an error
    expect(report.summary).toMatchObject({ error: 1, unmeasured: 0 });
    expect(gateFailure(report, 'regression')).toBe('duetkit: could not be compared: BenchmarkA');
    expect(overallVerdict(report.summary)).toBe('error');
  });

  it('nothing measured: passes fail-on regression, fail-on inconclusive says so', () => {
    const report = analyzeSamples(
      asSuite(pairedRun([], { stopReason: 'budget', budget: 60 }), [
        { name: 'BenchmarkA', pairs: 0, stopReason: 'iterations' },
        { name: 'BenchmarkB', pairs: 0, stopReason: 'iterations' },
      ]),
    );
    expect(overallVerdict(report.summary)).toBe('inconclusive');
    expect(gateFailure(report, 'regression')).toBeNull();
    expect(gateFailure(report, 'inconclusive')).toBe(
      'duetkit: nothing was measured within the budget, so there is no verdict (fail-on: inconclusive): BenchmarkA, BenchmarkB',
    );
  });

  it('an exact regression (allocs/op 2 → 3) fails fail-on regression and is named as exact', () => {
    const run = pairedRun([
      {
        pairs: 30,
        metrics: [
          timing('BenchmarkY', 1, 2),
          constant('BenchmarkY - allocs/op', 'allocs/op', 2, 3),
        ],
      },
    ]);
    expect(gateFailure(analyzeSamples(run), 'regression')).toBe(
      'duetkit: 1 benchmark regressed beyond the ±5.00% threshold: BenchmarkY - allocs/op +50.00% [+50.00%, +50.00%] (exact) regression',
    );
  });
});
