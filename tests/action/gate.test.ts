import { gateFailure, overallVerdict } from '../../src/action/gate.js';
import { sampleReport } from '../report/fixtures.js';

describe('the gate', () => {
  const report = sampleReport();

  it('regression: names the regressed benchmark with its change and interval', () => {
    expect(gateFailure(report, 'regression')).toMatch(
      /^duetkit: 1 benchmark regressed beyond the ±5\.00% threshold: parse \+12\.20% \[\+11\.24%, \+13\.16%\] regression; could not be compared: crashy$/,
    );
  });

  it('inconclusive: adds the inconclusive ones', () => {
    expect(gateFailure(report, 'inconclusive')).toMatch(
      /2 benchmarks regressed or inconclusive .*: parse .* regression; alloc \+5\.30% .* inconclusive; could not be compared: crashy$/,
    );
  });

  it('never: passes whatever happened', () => {
    expect(gateFailure(report, 'never')).toBeNull();
  });

  it('passes a clean report, and fails an empty one', () => {
    const clean = { ...report, results: report.results.filter((r) => r.benchmark === 'render') };
    expect(gateFailure(clean, 'inconclusive')).toBeNull();
    expect(gateFailure({ ...report, results: [] }, 'regression')).toBe(
      'duetkit: no measured samples to compare',
    );
  });

  it('a benchmark that is not comparable passes, unless nothing is comparable', () => {
    const names = new Set(['render', 'parse - system']);
    const clean = { ...report, results: report.results.filter((r) => names.has(r.benchmark)) };
    expect(gateFailure(clean, 'inconclusive')).toBeNull();
    const none = {
      ...report,
      results: report.results.filter((r) => r.notComparable !== null),
      summary: {
        ...report.summary,
        regression: 0,
        improvement: 0,
        unchanged: 0,
        inconclusive: 0,
        error: 0,
      },
    };
    expect(gateFailure(none, 'regression')).toBe(
      'duetkit: no benchmark is comparable, so there is no verdict: parse - system (base values are all 0: a relative change (head/base − 1) is undefined)',
    );
    expect(gateFailure(none, 'never')).toBeNull();
  });

  it('overall verdict: the first of error, regression, inconclusive, improvement', () => {
    const s = {
      regression: 0,
      improvement: 0,
      unchanged: 3,
      inconclusive: 0,
      notComparable: 0,
      error: 0,
    };
    expect(overallVerdict(s)).toBe('unchanged');
    expect(overallVerdict({ ...s, improvement: 1 })).toBe('improvement');
    expect(overallVerdict({ ...s, improvement: 1, inconclusive: 1 })).toBe('inconclusive');
    expect(overallVerdict({ ...s, regression: 1, inconclusive: 1 })).toBe('regression');
    expect(overallVerdict({ ...s, regression: 1, error: 1 })).toBe('error');
    // not comparable counts for nothing; with no verdict at all, nothing was judged
    expect(overallVerdict({ ...s, notComparable: 2 })).toBe('unchanged');
    expect(overallVerdict({ ...s, unchanged: 0, notComparable: 2 })).toBe('error');
    expect(overallVerdict({ ...s, unchanged: 0 })).toBe('error');
  });
});
