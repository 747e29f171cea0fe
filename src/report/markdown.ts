import { comparedCount, isExactTie, statusOf, unmeasuredCount } from '../analyze/report.js';
import type { BenchmarkResult, ComparisonReport } from '../contracts/comparison.js';
import { exactDiffers, exactText } from './exact-text.js';
import {
  explainHeader,
  functionText,
  listedFunctions,
  nothingBeyondNoise,
} from './explain-text.js';
import { UNMEASURED_HINT, unmeasuredNames } from './unmeasured-text.js';
import type { Comparison, NotComparable, Verdict } from '../stats/types.js';
import { escapeInline, codeBlock, codeSpan } from './escape.js';
import { BAR_GLYPHS, chooseScale, intervalBar, type BarScale } from './interval-bar.js';
import { renderMethod } from './markdown-method.js';
import { centreOf, formatInterval, formatPValue, formatPercent, formatValue } from './numbers.js';
import { formatDuration } from '../analyze/duration-text.js';
import type { RunMeta } from './run-meta.js';
import { REASONABLE_SECONDS } from '../analyze/settle.js';

/**
 * The report as GitHub-flavoured markdown, for the PR comment and the job summary: a
 * headline, one table per version against the baseline (with a text forest plot of each
 * interval; benchmarks that form no ratio are rows marked "not comparable", their reasons
 * listed below; exact results that differ are lines under the table, equal ones left out),
 * those the budget did not measure, errors, and a collapsed section on how the numbers were
 * obtained. Pure; every text that came from outside duetkit is escaped.
 */
export function renderMarkdown(
  report: ComparisonReport,
  meta: RunMeta,
  maxLength = MAX_COMMENT_LENGTH,
): string {
  const full = render(report, meta, false);
  if (full.length <= maxLength) return full;
  // Too long for a comment: list only what is not unchanged, then cut as a last resort.
  const short = render(report, meta, true);
  if (short.length <= maxLength) return short;
  return `${short.slice(0, maxLength - 200)}\n\n**Cut here: the report is longer than a GitHub comment may be.** All results are in comparison.json.\n`;
}

/** GitHub refuses comments over 65,536 characters; leave room for the marker. */
export const MAX_COMMENT_LENGTH = 65_000;

function render(report: ComparisonReport, meta: RunMeta, omitUnchanged: boolean): string {
  const out: string[] = [`### duetkit: ${escapeInline(meta.suite)}`, '', headline(report), ''];
  const compared = versionsLine(report, meta);
  if (compared !== '') out.push(compared, '');
  if (!report.complete) {
    out.push(
      `> [!WARNING]\n> Incomplete run (${report.stopReason}): these are the samples gathered until it stopped.`,
      '',
    );
  }
  const scale = chooseScale(
    statistical(report).map((r) => r.comparison!.ci),
    report.settings.threshold,
  );
  const versions = [...new Set(report.results.map((r) => r.version))];
  for (const version of versions) {
    const all = report.results.filter(
      (r) =>
        r.version === version &&
        shownInTable(r) &&
        !isExactTie(r) &&
        (r.exact === undefined || exactDiffers(r)),
    );
    const shown = omitUnchanged ? all.filter((r) => r.comparison?.verdict !== 'unchanged') : all;
    const rows = shown.filter((r) => r.exact === undefined);
    const exact = shown.filter((r) => r.exact !== undefined);
    if (versions.length > 1) {
      out.push(`#### ${escapeInline(version)} vs ${escapeInline(report.settings.baseline)}`, '');
    }
    if (rows.length > 0) out.push(...table(rows, report, scale, meta.trends), '');
    out.push(...explainBlock(rows));
    if (exact.length > 0) out.push(...exact.map(exactLine), '');
    if (shown.length < all.length) {
      out.push(
        `${all.length - shown.length} unchanged benchmarks are not listed, to fit GitHub's comment size limit; all results are in comparison.json.`,
        '',
      );
    }
  }
  if (statistical(report).length > 0) out.push(legend(report, scale), '');
  out.push(...notComparableLines(report));
  out.push(...unmeasuredLines(report));
  const errors = report.results.filter((r) => statusOf(r) === 'error');
  const unjudged =
    comparedCount(report.summary) === 0 &&
    unmeasuredCount(report.summary) === 0 &&
    report.summary.notComparable > 0;
  if (errors.length > 0 || report.results.length === 0 || unjudged) {
    out.push('#### Errors', '');
    if (report.results.length === 0) out.push('No measured samples to compare.', '');
    if (unjudged) out.push('No benchmark could be compared, so there is no verdict.', '');
    for (const r of errors) {
      out.push(`- **${escapeInline(r.benchmark)}** could not be compared:`, '');
      out.push(indent(codeBlock(r.error ?? 'unknown error')), '');
    }
  }
  out.push(...renderMethod(report, meta));
  return `${out.join('\n').trimEnd()}\n`;
}

/** "**2 regressions, 1 improvement, 14 unchanged** — duet, cpuset-isolated, 99% CI". */
export function headline(report: ComparisonReport): string {
  const s = report.summary;
  const counts = [
    plural(s.regression, 'regression'),
    plural(s.improvement, 'improvement'),
    `${s.unchanged} unchanged`,
  ];
  if (s.inconclusive > 0) counts.push(`${s.inconclusive} inconclusive`);
  if (s.notComparable > 0) counts.push(`${s.notComparable} not comparable`);
  if (s.error > 0) counts.push(plural(s.error, 'error'));
  if (unmeasuredCount(s) > 0) counts.push(`${unmeasuredCount(s)} not measured`);
  const level = `${+(report.settings.level * 100).toFixed(3)}% CI`;
  return `**${counts.join(', ')}** — ${report.mode}, ${isolationWords(report)}, ${level}`;
}

/** Rows of the tables (and exact lines): results with a comparison or not comparable. */
function shownInTable(r: BenchmarkResult): boolean {
  const status = statusOf(r);
  return status === 'compared' || status === 'not-comparable';
}

/** The results with an interval: compared statistically, not exactly. */
function statistical(report: ComparisonReport): BenchmarkResult[] {
  return report.results.filter((r) => r.comparison !== null && r.exact === undefined);
}

/** "- **BenchmarkParse - allocs/op**: 12 → 13 allocs/op (+8.33%, exact) 🔴 regression". */
function exactLine(r: BenchmarkResult): string {
  const v = r.comparison!.verdict;
  return `- **${escapeInline(r.benchmark)}**: ${exactText(r, (unit) => escapeInline(unit, 20))} ${VERDICT_ICON[v]} ${v}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function isolationWords(report: ComparisonReport): string {
  switch (report.isolation.kind) {
    case 'cgroup-v1':
    case 'cgroup-v2':
      return 'cpuset-isolated';
    case 'taskset':
      return 'taskset-pinned';
    default:
      return 'not CPU-isolated';
  }
}

function versionsLine(report: ComparisonReport, meta: RunMeta): string {
  const parts = meta.versions.map((v) => {
    const commit = v.commit === null ? '' : ` \`${v.commit.slice(0, 7)}\``;
    const role = v.name === report.settings.baseline ? ' (baseline)' : '';
    return `**${escapeInline(v.name)}**${commit}${role}`;
  });
  return parts.length === 0 ? '' : `Compared: ${parts.join(' · ')}`;
}

const VERDICT_ICON: Record<Verdict, string> = {
  regression: '🔴',
  improvement: '🟢',
  unchanged: '⚪',
  inconclusive: '🟡',
};
const NOT_COMPARABLE_ICON = '➖';

function table(
  rows: BenchmarkResult[],
  report: ComparisonReport,
  scale: BarScale,
  trends?: RunMeta['trends'],
): string[] {
  const levelPct = `${+(report.settings.level * 100).toFixed(3)}%`;
  // The baseline branch's trend (from the history), when there is one, beside the change.
  const trend = (r: BenchmarkResult): string => {
    if (trends === undefined) return '';
    const spark = trends.byBenchmark[r.benchmark];
    return ` ${spark === undefined || spark === '' ? '–' : `\`${spark}\``} |`;
  };
  const lines = [
    `| benchmark | ${escapeInline(rows[0]!.baseline)} | ${escapeInline(rows[0]!.version)} | change | ${levelPct} CI | interval | adjusted p | verdict |${trends === undefined ? '' : ` ${trends.label} |`}`,
    `| :-- | --: | --: | --: | :-: | :-- | --: | :-- |${trends === undefined ? '' : ' :-- |'}`,
  ];
  for (const r of rows) {
    const c = r.comparison;
    if (c === null) {
      const n = r.notComparable!;
      lines.push(
        `| ${escapeInline(r.benchmark)} | ${side(n, 'base', r.unit)} | ${side(n, 'head', r.unit)} | – | – |  | – | ${NOT_COMPARABLE_ICON} not comparable |${trend(r)}`,
      );
      continue;
    }
    lines.push(
      `| ${escapeInline(r.benchmark)} | ${side(c, 'base', r.unit)} | ${side(c, 'head', r.unit)} | ${formatPercent(c.change)} | ${formatInterval(c.ci.lower, c.ci.upper)} | \`${intervalBar(c.change, c.ci.lower, c.ci.upper, c.threshold, scale)}\` | ${formatPValue(c.test.pValueAdjusted)} | ${VERDICT_ICON[c.verdict]} ${verdictText(c, r)} |${trend(r)}`,
    );
  }
  return lines;
}

/**
 * Under the table, for each row with a differential profile: the top functions beyond noise
 * ("`checksum` self +4.4% of base time [+1.0, +7.8] (share 65.5% → 66.3%)"), or that nothing is beyond noise, or why there
 * is no profile; and where the flame graph is. Function names come from the profiled program:
 * escaped, in code spans.
 */
function explainBlock(rows: readonly BenchmarkResult[]): string[] {
  const explained = rows.filter((r) => r.explain !== undefined);
  if (explained.length === 0) return [];
  const lines = explained.map((r) => {
    const e = r.explain!;
    const name = `**${escapeInline(r.benchmark)}**`;
    if (e.method === null) return `- ${name}: ${escapeInline(explainHeader(e), 600)}`;
    const listed = listedFunctions(e);
    const what =
      listed.length === 0
        ? nothingBeyondNoise(e)
        : listed.map((f) => functionText(f, (n) => codeSpan(n))).join(' · ');
    const graph =
      e.files.flameGraph === null
        ? ''
        : ` — flame graph: ${codeSpan(e.files.flameGraph, 200)} in the results`;
    const warning = e.warning === null ? '' : ` ⚠️ ${escapeInline(e.warning, 400)}`;
    return `- ${name} (${escapeInline(explainHeader(e))}): ${what}${graph}${warning}`;
  });
  return [
    '**Where the time went** (differential profiles of base and head, after the verdict):',
    '',
    ...lines,
    '',
  ];
}

function verdictText(c: Comparison, r?: BenchmarkResult): string {
  if (c.verdict !== 'inconclusive' || c.moreSamplesNeeded === null) return c.verdict;
  const seconds = r?.settle?.seconds;
  if (seconds !== undefined && seconds !== null && seconds <= REASONABLE_SECONDS) {
    return `inconclusive (~${formatDuration(seconds)} more)`;
  }
  if (seconds !== undefined && seconds !== null) return 'inconclusive (too noisy here)';
  return `inconclusive (~${c.moreSamplesNeeded} more ${c.paired ? 'pairs' : 'per side'})`;
}

/** The statistic's centre for one side, with its unit, escaped (units come from tools). */
function side(c: Comparison | NotComparable, which: 'base' | 'head', unit: string): string {
  const centre = centreOf(c, which);
  return unit === '' ? formatValue(centre) : `${formatValue(centre)} ${escapeInline(unit, 20)}`;
}

function legend(report: ComparisonReport, scale: BarScale): string {
  const limit = formatPercent(scale.limit, 0).replace('+', '');
  const threshold =
    report.settings.thresholds === undefined
      ? `±${formatPercent(report.settings.threshold).replace('+', '')} threshold`
      : "the row's threshold (see Method)";
  const g = BAR_GLYPHS;
  return (
    `<sub>Interval column: −${limit} to +${limit}; \`${g.zero}\` no change, \`${g.threshold}\` ${threshold}, ` +
    `\`${g.interval}\` ${+(report.settings.level * 100).toFixed(3)}% CI, \`${g.estimate}\` estimate. ` +
    `Change = head/base − 1; adjusted p: ${report.settings.adjustment === 'none' ? 'not adjusted' : `${report.settings.adjustment === 'holm' ? 'Holm' : 'Benjamini–Hochberg'} across ${statistical(report).length} comparisons`}.</sub>`
  );
}

/** Why each benchmark that is not comparable has no ratio (they are rows of the tables). */
function notComparableLines(report: ComparisonReport): string[] {
  const results = report.results.filter((r) => statusOf(r) === 'not-comparable');
  if (results.length === 0) return [];
  const others = comparedCount(report.summary) > 0 ? '; the other benchmarks decide' : '';
  return [
    `**Not comparable:** no relative change (head/base − 1) can be formed from these values, so they have no verdict${others}.`,
    '',
    ...results.map(
      (r) => `- **${escapeInline(who(r, report))}**: ${escapeInline(r.notComparable!.reason, 400)}`,
    ),
    '',
  ];
}

/**
 * The benchmarks the budget did not measure, apart from the errors: named once, no verdict,
 * and what would reach them.
 */
function unmeasuredLines(report: ComparisonReport): string[] {
  const names = unmeasuredNames(report.results);
  if (names.length === 0) return [];
  const none =
    comparedCount(report.summary) === 0
      ? ' Nothing was measured enough to compare, so there is no verdict.'
      : '';
  return [
    `**Not measured within the budget (${names.length}):** ${names.map((n) => escapeInline(n)).join(', ')} — ${UNMEASURED_HINT}.${none}`,
    '',
  ];
}

/** The benchmark, with its version when several are compared against the baseline. */
function who(r: BenchmarkResult, report: ComparisonReport): string {
  const versions = new Set(report.results.map((x) => x.version));
  return versions.size > 1 ? `${r.benchmark} (${r.version})` : r.benchmark;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
