import { renderComparisonTable } from '../report/terminal.js';
import { timingText } from '../report/timing-text.js';
import type { ComparisonReport } from './report.js';

/**
 * The readable report of a run: how it was measured (mode, isolation in effect, completeness),
 * one comparison table per version against the baseline, and benchmarks that could not be
 * compared, as errors. Pure.
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
  for (const warning of [...iso.warnings, ...(report.timing?.warnings ?? [])]) {
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
    const rows = report.results.filter((r) => r.version === version && r.comparison !== null);
    if (versions.length > 1 || version !== 'head' || report.settings.baseline !== 'base') {
      out.push(`${version} vs ${report.settings.baseline}:`);
    }
    if (rows.length > 0) {
      out.push(
        renderComparisonTable(
          rows.map((r) => ({ name: r.benchmark, unit: r.unit, comparison: r.comparison! })),
        ).trimEnd(),
      );
    }
    for (const r of report.results.filter((x) => x.version === version && x.comparison === null)) {
      out.push(`error: ${r.benchmark}: ${r.error}`);
    }
    out.push('');
  }
  if (report.results.length === 0) out.push('error: no measured samples to compare', '');
  const s = report.summary;
  out.push(
    `summary: ${s.regression} regression, ${s.improvement} improvement, ${s.unchanged} unchanged, ${s.inconclusive} inconclusive, ${s.error} error`,
  );
  return `${out.join('\n')}\n`;
}

/** What `--fail-on` gates on. */
export type FailOn = 'regression' | 'inconclusive' | 'never';

/** Exit status of the gate: 1 when a result the user asked to fail on is present. */
export function gateExitCode(report: ComparisonReport, failOn: FailOn): number {
  if (failOn === 'never') return 0;
  const s = report.summary;
  const failing = s.regression + (failOn === 'inconclusive' ? s.inconclusive : 0);
  return failing > 0 ? 1 : 0;
}
