import { renderComparisonTable, renderExactLine, type TableRow } from '../report/terminal.js';
import { shownExact } from '../report/exact-text.js';
import { UNMEASURED_HINT, unmeasuredNames } from '../report/unmeasured-text.js';
import { timingText } from '../report/timing-text.js';
import { loadLines } from '../report/load-text.js';
import { efficiencyText } from '../report/efficiency-text.js';
import { clusterLines } from '../report/cluster-text.js';
import { comparedCount, unmeasuredCount } from './report.js';
import type { BenchmarkResult, ComparisonReport, ReportSummary } from '../contracts/comparison.js';

/**
 * The readable report of a run: how it was measured (mode, isolation in effect, completeness),
 * one comparison table per version against the baseline (benchmarks that form no ratio are
 * rows marked "not comparable"; exact results that differ are lines below it, equal ones are
 * left out), benchmarks that failed, as errors, and those the budget did not measure. Pure.
 */
export function describeReport(report: ComparisonReport): string {
  const out: string[] = [];
  const iso = report.isolation;
  const slots = iso.slots.map((s) => s ?? 'any').join(' | ');
  out.push(
    `${report.scenario}: ${report.mode} (${report.paired ? 'paired by round' : 'unpaired'}), isolation ${iso.kind}` +
      (iso.slots.length > 0 ? ` [CPUs ${slots}]` : '') +
      (iso.cpuWeight === undefined
        ? ''
        : `, CPU weight ${iso.cpuWeight}${iso.harnessWeighted === true ? ' (harness too)' : ''}`) +
      (iso.harnessCpus === null ? '' : `, harness on CPU ${iso.harnessCpus}`),
  );
  if (report.timing !== undefined) out.push(timingText(report.timing, report.mode));
  if (report.cluster !== undefined) out.push(...clusterLines(report.cluster));
  if (report.efficiency !== undefined) out.push(efficiencyText(report.efficiency));
  const load = report.load === undefined ? undefined : loadLines(report.load);
  out.push(...(load?.lines ?? []));
  for (const warning of [
    ...iso.warnings,
    ...(report.timing?.warnings ?? []),
    ...(load?.warnings ?? []),
    ...(report.cluster?.warnings ?? []),
  ]) {
    out.push(`warning: ${warning}`);
  }
  if (!report.complete) {
    out.push(
      `warning: INCOMPLETE run (${report.stopReason}): these are the samples gathered until then`,
    );
  } else if (report.stopReason !== 'iterations') {
    out.push(
      `stopped on ${report.stopReason === 'precision' ? 'the precision target' : 'the time budget'}`,
    );
  }
  out.push('');
  const versions = [...new Set(report.results.map((r) => r.version))];
  for (const version of versions) {
    const mine = report.results.filter((r) => r.version === version);
    const rows = mine.filter((r) => r.exact === undefined).flatMap(tableRow);
    if (versions.length > 1 || version !== 'head' || report.settings.baseline !== 'base') {
      out.push(`${version} vs ${report.settings.baseline}:`);
    }
    if (rows.length > 0) out.push(renderComparisonTable(rows).trimEnd());
    for (const r of shownExact(mine)) out.push(renderExactLine(r));
    for (const r of mine.filter((x) => x.error !== null)) {
      out.push(`error: ${r.benchmark}: ${r.error}`);
    }
    out.push('');
  }
  const unmeasured = unmeasuredNames(report.results);
  if (unmeasured.length > 0) {
    out.push(
      `not measured within the budget (${unmeasured.length}): ${unmeasured.join(', ')} — ${UNMEASURED_HINT}`,
    );
    if (nothingCompared(report)) out.push('nothing was measured enough to compare: no verdict');
    out.push('');
  }
  const s = report.summary;
  if (report.results.length === 0) out.push('error: no measured samples to compare', '');
  else if (nothingCompared(report) && unmeasuredCount(s) === 0 && s.notComparable > 0) {
    out.push('error: no benchmark could be compared, so there is no verdict', '');
  }
  out.push(
    `summary: ${s.regression} regression, ${s.improvement} improvement, ${s.unchanged} unchanged, ${s.inconclusive} inconclusive, ${s.notComparable} not comparable, ${s.error} error` +
      (unmeasuredCount(s) > 0 ? `, ${unmeasuredCount(s)} not measured` : ''),
  );
  return `${out.join('\n')}\n`;
}

function tableRow(r: BenchmarkResult): TableRow[] {
  if (r.comparison !== null) {
    return [
      {
        name: r.benchmark,
        unit: r.unit,
        comparison: r.comparison,
        ...(r.settle === undefined ? {} : { settle: r.settle.advice }),
      },
    ];
  }
  if (r.notComparable !== null) {
    return [{ name: r.benchmark, unit: r.unit, notComparable: r.notComparable }];
  }
  return [];
}

/** True when no result has a verdict: every one is an error or not comparable, or none ran. */
export function nothingCompared(report: ComparisonReport): boolean {
  return comparedCount(report.summary) === 0;
}

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
 * Exit status of `duetkit run` and `analyze`: 1 when the run is broken (an error, or nothing
 * judged) whatever `failOn` says — a broken or unjudged run is not a pass — else the gate's.
 * Benchmarks that are not comparable count for neither.
 */
export function exitStatus(report: ComparisonReport, failOn: FailOn): number {
  if (gateTally(report.summary, failOn).broken) return 1;
  return gateExitCode(report, failOn);
}

/** Exit status of the gate: 1 when a result the user asked to fail on is present. */
export function gateExitCode(report: ComparisonReport, failOn: FailOn): number {
  const t = gateTally(report.summary, failOn);
  return t.verdicts + t.unmeasured > 0 ? 1 : 0;
}
