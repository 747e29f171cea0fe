import type { ComparisonReport, ReportSummary } from '../contracts/comparison.js';
import { comparedCount, summarize, unmeasuredCount } from './report.js';

/** What `--fail-on` gates on. */
export type FailOn = 'regression' | 'inconclusive' | 'never';

/** What fails the gate, counted: the rule, written once for the CLI and the action. */
export interface GateTally {
  /** Results whose verdict `failOn` fails on: regressions, and inconclusive ones when strict. */
  verdicts: number;
  /**
   * Results the budget did not measure, when `failOn` is `inconclusive` (strict: no verdict
   * is not a pass); `regression` lets them through, since nothing regressed that was seen.
   */
  unmeasured: number;
  /**
   * Errors, or nothing judged at all (no result, or only ones not comparable): a broken run.
   * A run that only lacks time (every result unmeasured) is not broken, merely unmeasured.
   */
  broken: boolean;
}

/** The gate's tally of a summary under `failOn` (`never`: no verdict fails, `broken` still says). */
export function gateTally(summary: ReportSummary, failOn: FailOn): GateTally {
  const strict = failOn === 'inconclusive';
  return {
    verdicts: failOn === 'never' ? 0 : summary.regression + (strict ? summary.inconclusive : 0),
    unmeasured: strict ? unmeasuredCount(summary) : 0,
    broken: summary.error > 0 || (comparedCount(summary) === 0 && unmeasuredCount(summary) === 0),
  };
}

/**
 * Whether the gate fails under `failOn`: the one rule of pass and fail, for the action's step
 * and the CLI's exit status. `never` passes everything; otherwise a result the user asked to
 * fail on fails it (a regression; under `inconclusive` also an inconclusive or unmeasured one),
 * and so does a broken run (an error, or nothing judged): a broken benchmark is not a pass.
 * Benchmarks that are not comparable count for neither. Counted from the results themselves
 * (`summarize`), so a summary that disagrees with them decides nothing.
 */
export function gateFails(report: Pick<ComparisonReport, 'results'>, failOn: FailOn): boolean {
  if (failOn === 'never') return false;
  const t = gateTally(summarize(report.results), failOn);
  return t.broken || t.verdicts + t.unmeasured > 0;
}

/**
 * Exit status of `duetkit run` and `analyze`: the gate's (`gateFails`), except that a broken
 * run exits 1 whatever `failOn` says — also under `never`, a broken or unjudged run is not a
 * success of the command.
 */
export function exitStatus(report: Pick<ComparisonReport, 'results'>, failOn: FailOn): number {
  const broken = gateTally(summarize(report.results), failOn).broken;
  return broken || gateFails(report, failOn) ? 1 : 0;
}
