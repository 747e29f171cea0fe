import { settingsThresholdText } from './threshold-text.js';
import { exactDiffers } from './exact-text.js';
import { clusterLines } from './cluster-text.js';
import type { ComparisonReport } from '../contracts/comparison.js';
import type { Comparison } from '../stats/types.js';
import { escapeInline } from './escape.js';
import { formatPercent } from './numbers.js';
import { formatDuration } from '../analyze/duration-text.js';
import type { RunMeta } from './run-meta.js';
import { describeFingerprint } from './fingerprint-text.js';
import { timingText } from './timing-text.js';
import { loadLines } from './load-text.js';
import { efficiencyText } from './efficiency-text.js';

const MODE_WORDS: Record<ComparisonReport['mode'], string> = {
  duet: 'duet: base and head ran at the same time, iterations started together, paired by iteration',
  rmit: 'RMIT: randomized multiple interleaved trials, paired by round',
  mit: 'MIT: multiple interleaved trials in a fixed order (unpaired)',
  mct: 'MCT: multiple consecutive trials, one version after the other (unpaired)',
  single: 'single: one run of each version (unpaired)',
};

const STOP_WORDS: Record<ComparisonReport['stopReason'], string> = {
  iterations: 'ran every planned iteration',
  precision: 'stopped when every interval was narrow enough (precision target)',
  budget: 'stopped when the time budget was spent',
  interrupted: 'interrupted',
  failed: 'failed before the end',
};

/**
 * The collapsible "method" section: mode, isolation in effect, n, interval method,
 * resamples, seed, test and adjustment, MDE, runner and duration. Pure.
 */
const TEST_TEXT: Partial<Record<Comparison['test']['name'], string>> = {
  'wilcoxon-signed-rank': 'Wilcoxon signed-rank on log ratios',
  'trimmed-t': "the trimmed mean's own t test (Tukey–McLaughlin; a suite's looks)",
};

export function renderMethod(report: ComparisonReport, meta: RunMeta): string[] {
  // exact results (allocs/op...) have no interval, test or MDE: described apart
  const compared = report.results.filter((r) => r.comparison !== null && r.exact === undefined);
  const exact = report.results.filter((r) => r.exact !== undefined);
  const first: Comparison | undefined = compared[0]?.comparison ?? undefined;
  const s = report.settings;
  const items: string[] = [
    `**Mode:** ${MODE_WORDS[report.mode]}; ${STOP_WORDS[report.stopReason]}.`,
    `**Isolation in effect:** ${isolationText(report)}.`,
  ];
  if (report.fingerprint !== undefined) {
    items.push(`**Machine:** ${escapeInline(describeFingerprint(report.fingerprint), 400)}.`);
  }
  if (report.timing !== undefined)
    items.push(`**Timing:** ${timingText(report.timing, report.mode)}.`);
  const load = report.load === undefined ? undefined : loadLines(report.load);
  for (const line of load?.lines ?? []) items.push(escapeInline(line, 600));
  if (report.efficiency !== undefined) {
    items.push(`**Efficiency:** ${efficiencyText(report.efficiency)}.`);
  }
  for (const r of compared.filter((x) => x.settle !== undefined)) {
    items.push(
      `**Inconclusive, ${escapeInline(r.benchmark, 80)}:** ${escapeInline(r.settle!.advice, 400)}.`,
    );
  }
  if (report.cluster !== undefined) {
    items.push(
      `**Cluster:** ${clusterLines(report.cluster)
        .map((line) => escapeInline(line.replace(/^cluster /, ''), 400))
        .join('; ')}.`,
    );
  }
  if (first !== undefined) {
    const ns = new Set(compared.map((r) => sampleSize(r.comparison!)));
    items.push(`**n:** ${[...ns].join('; ')} per benchmark.`);
    items.push(
      first.ci.direct === 'trimmed-t'
        ? `**Interval:** ${+(s.level * 100).toFixed(3)}% CI of the 20% trimmed mean of the log pair ratios (Tukey–McLaughlin)${(first.ci.blockLength ?? 1) > 1 ? `, ${first.ci.blockLength} consecutive pairs counted as one` : ''}.`
        : `**Interval:** ${first.ci.method === 'bca' ? 'BCa' : 'percentile'} ${+(s.level * 100).toFixed(3)}% CI, ${bootstrapText(first)}, ${s.resamples} resamples, seed ${s.seed}.`,
    );
    items.push(
      `**Test:** ${TEST_TEXT[first.test.name] ?? 'Mann–Whitney U'}; p-values ${adjustmentText(s.adjustment, compared.length)}.`,
    );
    items.push(
      s.thresholds === undefined
        ? `**Threshold:** ${settingsThresholdText(s.threshold, undefined)} (practical significance).`
        : `**Thresholds** (practical significance): ${settingsThresholdText(s.threshold, s.thresholds)} (by benchmark name, else by kind of metric, else the first).`,
    );
    items.push(
      `**Minimum detectable effect** (at ${Math.round(first.power * 100)}% power): ${compared
        .map(
          (r) =>
            `${escapeInline(r.benchmark, 80)} ≥ ${formatPercent(r.comparison!.mde).replace('+', '')}`,
        )
        .join(', ')}.`,
    );
  }
  if (exact.length > 0) items.push(exactItem(exact));
  items.push(`**Runner:** ${escapeInline(meta.runner, 400)}.`);
  items.push(`**Duration:** ${formatDuration(meta.durationSeconds)}.`);
  if (meta.versions.length > 0) {
    items.push(
      `**Versions:** ${meta.versions
        .map(
          (v) =>
            `${escapeInline(v.name)} = ${escapeInline(v.source, 120)}${v.commit === null ? '' : ` (\`${v.commit.slice(0, 12)}\`)`}`,
        )
        .join('; ')}.`,
    );
  }
  for (const warning of [
    ...report.isolation.warnings,
    ...(report.timing?.warnings ?? []),
    ...(load?.warnings ?? []),
    ...(report.cluster?.warnings ?? []),
  ]) {
    items.push(`⚠️ ${escapeInline(warning, 400)}`);
  }
  for (const r of compared) {
    for (const note of r.comparison!.notes) {
      items.push(`Note on ${escapeInline(r.benchmark)}: ${escapeInline(note, 400)}`);
    }
  }
  return [
    '<details><summary>How these numbers were obtained</summary>',
    '',
    ...items.map((item) => `- ${item}`),
    '',
    '</details>',
  ];
}

/** How many metrics were constant on each side, so compared exactly, and how many of them are equal. */
function exactItem(exact: readonly ComparisonReport['results'][number][]): string {
  const equal = exact.filter((r) => !exactDiffers(r)).length;
  return `**Exact:** ${exact.length} metric${exact.length === 1 ? ' was' : 's were'} one constant on each side (e.g. allocs/op), compared exactly by head/base − 1 and the threshold alone, outside the multiple-comparison family; ${equal} of them equal on both sides ${equal === 1 ? 'is' : 'are'} not listed (all are in comparison.json).`;
}

function sampleSize(c: Comparison): string {
  return c.paired ? `${c.n.base} pairs` : `${c.n.base} base, ${c.n.head} head`;
}

function bootstrapText(c: Comparison): string {
  if (c.ci.bootstrap === 'block')
    return `moving-block bootstrap over pairs (blocks of ${c.ci.blockLength})`;
  return c.ci.bootstrap === 'paired' ? 'bootstrap over pairs' : 'bootstrap of each side';
}

function adjustmentText(adjustment: string, count: number): string {
  if (adjustment === 'none') return 'not adjusted for multiple comparisons';
  const name =
    adjustment === 'holm'
      ? 'Holm (family-wise error)'
      : 'Benjamini–Hochberg (false discovery rate)';
  return `adjusted by ${name} across ${count} comparison${count === 1 ? '' : 's'}`;
}

function isolationText(report: ComparisonReport): string {
  const iso = report.isolation;
  const kind: Record<typeof iso.kind, string> = {
    'cgroup-v1': 'cgroup v1 cpuset',
    'cgroup-v2': 'cgroup v2 cpuset',
    taskset: 'taskset CPU affinity',
    none: 'none',
  };
  const slots =
    iso.slots.length > 0 && iso.slots.some((x) => x !== null)
      ? `, CPUs ${iso.slots.map((x) => x ?? 'any').join(' | ')}`
      : '';
  const harness = iso.harnessCpus === null ? '' : `, harness on CPU ${iso.harnessCpus}`;
  const weight =
    iso.cpuWeight === undefined
      ? ''
      : `, CPU weight ${iso.cpuWeight}${iso.harnessWeighted === true ? ' (the harness too)' : ''}`;
  const partition = iso.partition === undefined ? '' : `, exclusive (partition ${iso.partition})`;
  const plan = iso.cpuPlan;
  const layout =
    plan?.layout == null
      ? ''
      : `; ${plan.layout}${plan.idle === null ? '' : `, siblings ${plan.idle} idle`}${plan.siblingsInUse ? ", the measured CPUs' SMT siblings in use" : ''}`;
  return `${kind[iso.kind]}${slots}${weight}${partition}${harness}${layout} (requested: ${iso.requested})`;
}
