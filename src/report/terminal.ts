import type { Comparison } from '../stats/types.js';
import { centreOf, formatInterval, formatPValue, formatPercent, formatValue } from './numbers.js';

export interface ComparisonRow {
  name: string;
  unit: string;
  comparison: Comparison;
}

/**
 * A benchstat-like plain-text table of comparisons, then one line on how the numbers were
 * obtained and any notes. Pure: returns the text.
 */
export function renderComparisonTable(rows: readonly ComparisonRow[]): string {
  if (rows.length === 0) return 'no comparisons\n';
  const first = rows[0]!.comparison;
  const levelPct = `${+(first.ci.level * 100).toFixed(3)}%`;
  const header = [
    'benchmark',
    'base',
    'head',
    'change',
    `${levelPct} CI`,
    pHeader(rows),
    'verdict',
  ];
  const body = rows.map(({ name, unit, comparison: c }) => [
    name,
    sideText(c, 'base', unit),
    sideText(c, 'head', unit),
    formatPercent(c.change),
    formatInterval(c.ci.lower, c.ci.upper),
    formatPValue(c.test.pValueAdjusted),
    c.verdict,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: string[]): string =>
    cells
      .map((cell, i) =>
        i === 0 || i === cells.length - 1 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!),
      )
      .join('  ')
      .trimEnd();
  const out = [line(header), ...body.map(line), ''];
  out.push(...methodLines(rows));
  return `${out.join('\n')}\n`;
}

function pHeader(rows: readonly ComparisonRow[]): string {
  const c = rows[0]!.comparison;
  const test = c.test.name === 'mann-whitney-u' ? 'MWU' : 'Wilcoxon';
  return c.test.adjustment === 'none' ? `p (${test})` : `p (${test}, ${c.test.adjustment})`;
}

/** "12.31 ms ±2.1%": the statistic's centre and the CV of the side. */
function sideText(c: Comparison, side: 'base' | 'head', unit: string): string {
  const s = c[side];
  const centre = centreOf(c, side);
  return `${formatValue(centre, unit)} ±${(s.cv * 100).toFixed(1)}%`;
}

function methodLines(rows: readonly ComparisonRow[]): string[] {
  const c = rows[0]!.comparison;
  const lines: string[] = [];
  const design = c.paired
    ? `paired (${c.statistic === 'mean' ? 'ratio of means' : `${c.statistic === 'gmean' ? 'geometric mean' : 'median'} of pair ratios`})`
    : `unpaired (ratio of ${c.statistic === 'gmean' ? 'geometric means' : `${c.statistic}s`})`;
  const resampling =
    c.ci.bootstrap === 'block'
      ? `block bootstrap, blocks of ${c.ci.blockLength}`
      : `${c.ci.bootstrap} bootstrap`;
  lines.push(
    `method: ${design}; ${c.ci.method === 'bca' ? 'BCa' : 'percentile'} ${+(c.ci.level * 100).toFixed(3)}% CI, ${resampling}, ${c.ci.resamples} resamples, seed ${c.seed}; threshold ±${+(c.threshold * 100).toFixed(3)}%`,
  );
  for (const { name, comparison } of rows) {
    const prefix = rows.length > 1 ? `${name}: ` : '';
    const n = comparison.paired
      ? `${comparison.n.base} pairs`
      : `n = ${comparison.n.base} base, ${comparison.n.head} head`;
    lines.push(
      `${prefix}${n}; could detect changes ≥ ${formatPercent(comparison.mde).replace('+', '')} (MDE at ${Math.round(comparison.power * 100)}% power)`,
    );
    if (comparison.verdict === 'inconclusive') {
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
