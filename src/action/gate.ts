import { comparedCount, statusOf, summarize, unmeasuredCount } from '../analyze/report.js';
import type { ComparisonReport } from '../contracts/comparison.js';
import { gateFails, gateTally, type FailOn } from '../analyze/gate.js';
import { formatInterval, formatPercent } from '../report/numbers.js';
import { unmeasuredNames } from '../report/unmeasured-text.js';

export type OverallVerdict = 'error' | 'regression' | 'inconclusive' | 'improvement' | 'unchanged';

/**
 * The first that applies of error, regression, inconclusive, improvement, unchanged, over the
 * benchmarks that have a verdict; those not comparable count for none. Benchmarks the budget
 * did not measure make it inconclusive (unless something regressed): not an error, but not a
 * pass either — also when nothing was measured at all. With no verdict and nothing left
 * unmeasured (every benchmark not comparable, or none measured) it is `error`.
 */
export function overallVerdict(summary: ComparisonReport['summary']): OverallVerdict {
  if (gateTally(summary, 'never').broken) return 'error';
  if (summary.regression > 0) return 'regression';
  if (summary.inconclusive > 0 || unmeasuredCount(summary) > 0) return 'inconclusive';
  if (summary.improvement > 0) return 'improvement';
  return 'unchanged';
}

/**
 * Why the step fails under `failOn`, naming each benchmark with its change and interval; null
 * when it passes. Whether it fails is `gateFails`, the rule the CLI's exit status follows too:
 * a benchmark that could not be compared fails it unless `never` (a broken benchmark is not a
 * pass); one that is not comparable (no ratio from its values) does not, unless no benchmark
 * has a verdict at all; one the budget did not measure fails it only under `inconclusive`.
 */
export function gateFailure(report: ComparisonReport, failOn: FailOn): string | null {
  if (!gateFails(report, failOn)) return null;
  const summary = summarize(report.results);
  const tally = gateTally(summary, failOn);
  const failing = new Set(
    failOn === 'inconclusive' ? ['regression', 'inconclusive'] : ['regression'],
  );
  const named = report.results
    .filter((r) => r.comparison !== null && failing.has(r.comparison.verdict))
    .map((r) => {
      const c = r.comparison!;
      const exact = r.exact === undefined ? '' : ' (exact)';
      return `${who(r)} ${formatPercent(c.change)} ${formatInterval(c.ci.lower, c.ci.upper)}${exact} ${c.verdict}`;
    });
  const errors = report.results.filter((r) => statusOf(r) === 'error').map((r) => r.benchmark);
  const parts: string[] = [];
  if (named.length > 0) {
    const what = failOn === 'inconclusive' ? 'regressed or inconclusive' : 'regressed';
    parts.push(
      `${named.length} benchmark${named.length === 1 ? '' : 's'} ${what} beyond the ±${formatPercent(report.settings.threshold).replace('+', '')} threshold: ${named.join('; ')}`,
    );
  }
  if (errors.length > 0) parts.push(`could not be compared: ${errors.join(', ')}`);
  if (tally.unmeasured > 0) {
    const names = unmeasuredNames(report.results);
    parts.push(
      comparedCount(summary) === 0
        ? `nothing was measured within the budget, so there is no verdict (fail-on: inconclusive): ${names.join(', ')}`
        : `not measured within the budget (fail-on: inconclusive): ${names.join(', ')}`,
    );
  }
  if (report.results.length === 0) parts.push('no measured samples to compare');
  else if (tally.broken && comparedCount(summary) === 0 && summary.notComparable > 0) {
    const unjudged = report.results
      .filter((r) => statusOf(r) === 'not-comparable')
      .map((r) => `${who(r)} (${r.notComparable!.reason})`);
    parts.push(`no benchmark is comparable, so there is no verdict: ${unjudged.join('; ')}`);
  }
  return `duetkit: ${parts.join('; ')}`;
}

function who(r: ComparisonReport['results'][number]): string {
  return r.version === 'head' ? r.benchmark : `${r.benchmark} (${r.version})`;
}
