import type { BenchmarkResult, ReportSummary, ResultStatus } from '../contracts/comparison.js';

/**
 * The result of a benchmark with nothing to compare (never run, or not reached): why, in
 * exactly one of `error` and `unmeasured`.
 */
export function uncompared(
  benchmark: string,
  baseline: string,
  version: string,
  why: { error: string; unmeasured?: null } | { error?: null; unmeasured: string },
): BenchmarkResult {
  return {
    benchmark,
    unit: '',
    biggerIsBetter: false,
    valueKind: null,
    baseline,
    version,
    comparison: null,
    notComparable: null,
    error: why.error ?? null,
    unmeasured: why.unmeasured ?? null,
  };
}

/** A result's status; one without a comparison, `notComparable` or `unmeasured` is an error. */
export function statusOf(result: BenchmarkResult): ResultStatus {
  if (result.comparison !== null) return 'compared';
  // `!= null`: comparison.json of schema version 1 has no `notComparable`, 2 no `unmeasured`
  if (result.notComparable != null) return 'not-comparable';
  return result.unmeasured != null ? 'unmeasured' : 'error';
}

/**
 * An exact result whose base equals its head (e.g. the same allocs/op): no test and nothing
 * to show, so reports leave it out and the summary does not count it.
 */
export function isExactTie(result: BenchmarkResult): boolean {
  return result.exact !== undefined && result.exact.base === result.exact.head;
}

/** How many results have a verdict: only they decide the run's verdict and its gate. */
export function comparedCount(summary: ReportSummary): number {
  return summary.regression + summary.improvement + summary.unchanged + summary.inconclusive;
}

/** Results the budget did not measure (0 for a file older than version 3). */
export function unmeasuredCount(summary: ReportSummary): number {
  return summary.unmeasured ?? 0;
}

/**
 * Counts the results by status and verdict. Exact ties are no test and are not counted,
 * unless nothing else has a verdict, failed or went unmeasured (every metric constant and
 * equal): then they are the verdict, unchanged, rather than a run with nothing judged. A
 * derived metric (go's MB/s from ns/op) is its benchmark's measurement again, with its
 * verdict: it is reported but not counted, so one slower benchmark is one regression.
 */
export function summarize(results: readonly BenchmarkResult[]): ReportSummary {
  const summary = {
    regression: 0,
    improvement: 0,
    unchanged: 0,
    inconclusive: 0,
    notComparable: 0,
    error: 0,
    unmeasured: 0,
  };
  const counted = results.filter((r) => r.derivedFrom === undefined);
  const ties = counted.filter(isExactTie).length;
  for (const r of counted) {
    if (isExactTie(r)) continue;
    const status = statusOf(r);
    if (status === 'compared') summary[r.comparison!.verdict]++;
    else if (status === 'not-comparable') summary.notComparable++;
    else summary[status]++;
  }
  const nothingElse = comparedCount(summary) + summary.error + summary.unmeasured === 0;
  if (nothingElse) summary.unchanged += ties;
  return summary;
}
