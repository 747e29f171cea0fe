import type { Comparison, NotComparable } from '../stats/types.js';

/** One entry of github-action-benchmark's custom JSON. */
export interface GabEntry {
  name: string;
  unit: string;
  value: number;
  range?: string;
  extra?: string;
}

/** Both custom files: github-action-benchmark takes one direction per file (`tool:` input). */
export interface GabExport {
  customSmallerIsBetter: GabEntry[];
  customBiggerIsBetter: GabEntry[];
}

export interface NamedComparison {
  name: string;
  unit: string;
  comparison: Comparison;
}

/** A benchmark measured on both sides whose values form no relative change. */
export interface NamedNotComparable {
  name: string;
  unit: string;
  notComparable: NotComparable;
  biggerIsBetter: boolean;
}

function round(value: number): number {
  return Number(value.toPrecision(6));
}

function percent(fraction: number): string {
  const sign = fraction > 0 ? '+' : '';
  return `${sign}${(fraction * 100).toFixed(2)}%`;
}

/** A side's value of the statistic the comparison used (gmean falls back to the median). */
function sideValue(c: Comparison | NotComparable, side: 'base' | 'head'): number {
  const summary = c[side];
  if (c.statistic === 'mean') return summary.mean;
  if (c.statistic === 'gmean') return summary.gmean ?? summary.median;
  return summary.median;
}

/**
 * Turns comparisons into github-action-benchmark custom JSON, so its `data.js` history and
 * dashboard keep working. `value` is the head version's statistic, `range` its standard
 * deviation, and `extra` says how the verdict was obtained (change, CI, n, seed). A benchmark
 * that is not comparable still has a head value: it is exported, `extra` saying why it has no
 * change. Pure.
 */
export function toGab(results: readonly (NamedComparison | NamedNotComparable)[]): GabExport {
  const out: GabExport = { customSmallerIsBetter: [], customBiggerIsBetter: [] };
  for (const r of results) {
    const compared = 'comparison' in r;
    const entry = compared ? comparedEntry(r) : notComparableEntry(r);
    const bigger = compared ? r.comparison.biggerIsBetter : r.biggerIsBetter;
    (bigger ? out.customBiggerIsBetter : out.customSmallerIsBetter).push(entry);
  }
  return out;
}

function comparedEntry({ name, unit, comparison: c }: NamedComparison): GabEntry {
  return {
    name,
    unit,
    value: round(sideValue(c, 'head')),
    range: `± ${round(c.head.sd)}`,
    extra: [
      `change: ${percent(c.change)} (${c.ci.level * 100}% CI ${percent(c.ci.lower)} to ${percent(c.ci.upper)}, ${c.ci.method}, ${c.ci.resamples} resamples, seed ${c.ci.seed})`,
      `verdict: ${c.verdict} (threshold ${percent(c.threshold)})`,
      `n: base ${c.n.base}, head ${c.n.head}${c.paired ? ' (paired)' : ''}; statistic: ${c.statistic}`,
      `base: ${round(sideValue(c, 'base'))} ${unit}`,
    ].join('\n'),
  };
}

function notComparableEntry({ name, unit, notComparable: n }: NamedNotComparable): GabEntry {
  return {
    name,
    unit,
    value: round(sideValue(n, 'head')),
    range: `± ${round(n.head.sd)}`,
    extra: [
      `change: not comparable (${n.reason})`,
      `n: base ${n.base.n}, head ${n.head.n}; statistic: ${n.statistic}`,
      `base: ${round(sideValue(n, 'base'))} ${unit}`,
    ].join('\n'),
  };
}
