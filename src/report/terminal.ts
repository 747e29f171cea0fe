import { comparedCount, unmeasuredCount } from '../analyze/report.js';
import type { BenchmarkResult, ComparisonReport } from '../contracts/comparison.js';
import type { Comparison, NotComparable } from '../stats/types.js';
import { clusterLines } from './cluster-text.js';
import { efficiencyText } from './efficiency-text.js';
import { exactText, shownExact } from './exact-text.js';
import {
  explainHeader,
  functionText,
  listedFunctions,
  nothingBeyondNoise,
} from './explain-text.js';
import type { Explain } from '../contracts/explain.js';
import { rowsThresholdText } from './threshold-text.js';
import { loadLines } from './load-text.js';
import { centreOf, formatInterval, formatPValue, formatPercent, formatValue } from './numbers.js';
import { timingText } from './timing-text.js';
import { UNMEASURED_HINT, unmeasuredNames } from './unmeasured-text.js';

/**
 * The terminal renderer: the report `duetkit run` and `analyze` print (`describeReport`), and
 * its comparison table, which `compare-samples` prints alone. Pure functions of data.
 */

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
        ...(r.explain === undefined ? {} : { explain: r.explain }),
      },
    ];
  }
  if (r.notComparable !== null) {
    return [{ name: r.benchmark, unit: r.unit, notComparable: r.notComparable }];
  }
  return [];
}

/** True when no result has a verdict: every one is an error or not comparable, or none ran. */
function nothingCompared(report: ComparisonReport): boolean {
  return comparedCount(report.summary) === 0;
}

export interface ComparisonRow {
  name: string;
  unit: string;
  comparison: Comparison;
  /** For an inconclusive row: what would settle it, in machine time (analyze/settle.ts). */
  settle?: string;
  /** Where the time went (the differential profile): listed under the row. */
  explain?: Explain;
}

/** A benchmark measured on both sides whose values form no relative change. */
export interface NotComparableRow {
  name: string;
  unit: string;
  notComparable: NotComparable;
}

export type TableRow = ComparisonRow | NotComparableRow;

/**
 * A benchstat-like plain-text table of comparisons, then one line on how the numbers were
 * obtained and any notes. Rows that are not comparable show what each side measured, "not
 * comparable" as their verdict and the reason below. Pure: returns the text.
 */
export function renderComparisonTable(rows: readonly TableRow[]): string {
  if (rows.length === 0) return 'no comparisons\n';
  const compared = rows.filter((r): r is ComparisonRow => 'comparison' in r);
  const first = compared[0]?.comparison;
  const header = [
    'benchmark',
    'base',
    'head',
    'change',
    first === undefined ? 'CI' : `${+(first.ci.level * 100).toFixed(3)}% CI`,
    first === undefined ? 'p' : pHeader(first),
    'verdict',
  ];
  const body = rows.map((row) => {
    if (!('comparison' in row)) {
      const n = row.notComparable;
      const [base, head] = [sideText(n, 'base', row.unit), sideText(n, 'head', row.unit)];
      return [row.name, base, head, '–', '–', '–', 'not comparable'];
    }
    const c = row.comparison;
    return [
      row.name,
      sideText(c, 'base', row.unit),
      sideText(c, 'head', row.unit),
      formatPercent(c.change),
      formatInterval(c.ci.lower, c.ci.upper),
      formatPValue(c.test.pValueAdjusted),
      c.verdict,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: string[]): string =>
    cells
      .map((cell, i) =>
        i === 0 || i === cells.length - 1 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!),
      )
      .join('  ')
      .trimEnd();
  const out = [
    line(header),
    ...body.flatMap((cells, i) => {
      const row = rows[i]!;
      return [line(cells), ...('explain' in row && row.explain ? explainLines(row.explain) : [])];
    }),
    '',
  ];
  if (compared.length > 0) out.push(...methodLines(compared, rows.length > 1));
  for (const row of rows) {
    if ('comparison' in row) continue;
    const prefix = rows.length > 1 ? `${row.name}: ` : '';
    out.push(`${prefix}not comparable: ${row.notComparable.reason}`);
  }
  return `${out.join('\n')}\n`;
}

/**
 * An exact result whose sides differ, as one line instead of a table row (it has no interval
 * or p-value): "BenchmarkParse - allocs/op: 12 → 13 allocs/op (+8.33%, exact) regression".
 */
export function renderExactLine(r: BenchmarkResult): string {
  return `${r.benchmark}: ${exactText(r)} ${r.comparison!.verdict}`;
}

/**
 * The differential under a row: "  where the time went (perf, …):" and the top functions
 * beyond noise, one a line, or that nothing is beyond noise, or why there is no profile.
 */
function explainLines(explain: Explain): string[] {
  if (explain.method === null) return [`  ↳ ${explainHeader(explain)}`];
  const listed = listedFunctions(explain);
  const head = `  ↳ where the time went (${explainHeader(explain)})`;
  const warning = explain.warning === null ? [] : [`    warning: ${explain.warning}`];
  const graph =
    explain.files.flameGraph === null ? [] : [`    flame graph: ${explain.files.flameGraph}`];
  if (listed.length === 0) {
    return [`${head}: ${nothingBeyondNoise(explain)}`, ...graph, ...warning];
  }
  return [`${head}:`, ...listed.map((f) => `    ${functionText(f)}`), ...graph, ...warning];
}

const TEST_LABEL: Partial<Record<Comparison['test']['name'], string>> = {
  'mann-whitney-u': 'MWU',
  'trimmed-t': 'trimmed t',
};

function pHeader(c: Comparison): string {
  const test = TEST_LABEL[c.test.name] ?? 'Wilcoxon';
  return c.test.adjustment === 'none' ? `p (${test})` : `p (${test}, ${c.test.adjustment})`;
}

/** "12.31 ms ±2.1%": the statistic's centre and the CV of the side. */
function sideText(c: Comparison | NotComparable, side: 'base' | 'head', unit: string): string {
  const s = c[side];
  const centre = centreOf(c, side);
  return `${formatValue(centre, unit)} ±${(s.cv * 100).toFixed(1)}%`;
}

const PAIRED_WORDS: Record<Comparison['statistic'], string> = {
  mean: 'ratio of means',
  gmean: 'geometric mean of pair ratios',
  median: 'median of pair ratios',
  trimmed: '20% trimmed mean of the log pair ratios',
};

function methodLines(rows: readonly ComparisonRow[], named: boolean): string[] {
  const c = rows[0]!.comparison;
  const lines: string[] = [];
  const design = c.paired
    ? `paired (${PAIRED_WORDS[c.statistic]})`
    : `unpaired (ratio of ${c.statistic === 'gmean' ? 'geometric means' : `${c.statistic}s`})`;
  const resampling =
    c.ci.bootstrap === 'block'
      ? `block bootstrap, blocks of ${c.ci.blockLength}`
      : `${c.ci.bootstrap} bootstrap`;
  const interval =
    c.ci.direct === 'trimmed-t'
      ? `Tukey–McLaughlin ${+(c.ci.level * 100).toFixed(3)}% CI${(c.ci.blockLength ?? 1) > 1 ? ` (blocks of ${c.ci.blockLength} pairs)` : ''}`
      : `${c.ci.method === 'bca' ? 'BCa' : 'percentile'} ${+(c.ci.level * 100).toFixed(3)}% CI, ${resampling}, ${c.ci.resamples} resamples, seed ${c.seed}`;
  const thresholds = rowsThresholdText(
    rows.map((r) => ({ name: r.name, unit: r.unit, threshold: r.comparison.threshold })),
  );
  const word = thresholds.includes('(') ? 'thresholds' : 'threshold';
  lines.push(`method: ${design}; ${interval}; ${word} ${thresholds}`);
  for (const { name, comparison, settle } of rows) {
    const prefix = named ? `${name}: ` : '';
    const n = comparison.paired
      ? `${comparison.n.base} pairs`
      : `n = ${comparison.n.base} base, ${comparison.n.head} head`;
    lines.push(
      `${prefix}${n}; could detect changes ≥ ${formatPercent(comparison.mde).replace('+', '')} (MDE at ${Math.round(comparison.power * 100)}% power)`,
    );
    if (comparison.verdict === 'inconclusive' && settle !== undefined) {
      lines.push(`${prefix}inconclusive: ${settle}`);
    } else if (comparison.verdict === 'inconclusive') {
      lines.push(
        comparison.moreSamplesNeeded === null
          ? `${prefix}inconclusive: the estimate sits on the threshold; more samples would not settle it`
          : `${prefix}inconclusive: about ${comparison.moreSamplesNeeded} more ${comparison.paired ? 'pairs' : 'samples per side'} would settle it`,
      );
    }
    for (const note of comparison.notes) lines.push(`${prefix}note: ${note}`);
  }
  return lines;
}
