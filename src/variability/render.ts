import type { StatisticInterval } from '../stats/one-sample-bootstrap.js';
import type { BenchmarkVariability, SuiteVariability, VariabilityReport } from './analyze.js';
import type { ChangePoint } from './change-points.js';
import type { PairedStep } from './paired.js';
import { formatP } from './patterns.js';

const pct = (x: number, digits = 2) => `${(x * 100).toFixed(digits)}%`;
const signed = (x: number) => `${x >= 0 ? '+' : ''}${pct(x)}`;
const short = (id: string | null) => (id === null ? '?' : `\`${id.slice(0, 10)}\``);
const day = (iso: string | null) => (iso === null ? '?' : iso.slice(0, 10));

/** The variability report as Markdown (job summary, issue body, terminal). Pure. */
export function renderVariability(report: VariabilityReport): string {
  const out: string[] = [];
  if (report.suites.length === 0) {
    out.push(
      '## duetkit variability',
      '',
      'No runs in the history' +
        (report.settings.since ? ` since ${day(report.settings.since)}` : '') +
        '.',
    );
  }
  for (const suite of report.suites) out.push(...renderSuite(suite), '');
  if (report.skipped.length > 0 || report.warnings.length > 0) {
    out.push(
      `<details><summary>Left out of the analysis (${report.skipped.length + report.warnings.length})</summary>`,
      '',
    );
    for (const w of report.warnings) out.push(`- ${w}`);
    for (const s of report.skipped) {
      const where = [s.suite, s.benchmark, s.runId && `run ${s.runId}`].filter(Boolean).join(', ');
      out.push(`- ${where}: ${s.reason}`);
    }
    out.push('', '</details>', '');
  }
  const s = report.settings;
  out.push(
    `<sub>Change points: E-Divisive (Matteson & James 2014; each split's second side runs to the end of its segment and within-side means are V-statistics, as MongoDB's signal-processing-algorithms computes it), permutation test at α = ${s.changePointAlpha} with ${s.permutations} permutations; steps: ratio of segment medians with a ${pct(s.level, 0)} bootstrap interval, called only when the whole interval lies beyond ${(s.threshold ?? 0) === 0 ? 'no change' : `±${pct(s.threshold!, 1)}`}. CVs and medians: ${pct(s.level, 0)} BCa bootstrap, ${s.resamples} resamples, seed ${s.seed}. Patterns (UTC; values relative to their segment's median): Kruskal–Wallis and pairwise Mann–Whitney (Holm) at α = ${s.patternAlpha}. MDE: from the A/A duet when the run had one, else from the run's CV (99%, 80% power).</sub>`,
  );
  return `${out.join('\n').trimEnd()}\n`;
}

function renderSuite(suite: SuiteVariability): string[] {
  const out = [`## duetkit variability: ${suite.suite}`, ''];
  out.push(`${suite.runs} runs from ${day(suite.first)} to ${day(suite.last)}.`);
  const aa = suite.aa;
  if (aa !== null) {
    const latest = aa.latest!;
    out.push(
      latest.calledChanged.length === 0
        ? `A/A duet of the latest run (${day(latest.at)}): nothing called changed.`
        : `⚠️ A/A duet of the latest run (${day(latest.at)}) called changed: ${latest.calledChanged.join(', ')} — the runner misled a PR-style comparison tonight.`,
      `A/A false positives: ${aa.calledChanged} of ${aa.comparisons} comparisons in ${aa.runs} runs (${pct(aa.rate.estimate)}, 95% Wilson [${pct(aa.rate.lower)}, ${pct(aa.rate.upper)}]; nominal ${pct(aa.nominal, 1)}): ${
        aa.rate.lower > aa.nominal
          ? 'more than the nominal rate — on these runners, PR verdicts are called changed too often'
          : aa.rate.upper < aa.nominal
            ? 'below the nominal rate'
            : 'consistent with the nominal rate'
      }.`,
    );
  }
  out.push(
    '',
    '| benchmark | runs | latest | CV within runs | CV between runs | MDE now | change points | patterns |',
    '| :-- | --: | --: | :-- | :-- | --: | :-- | :-- |',
  );
  for (const b of suite.benchmarks) out.push(row(b));
  const cps = suite.benchmarks.flatMap((b) => b.changePoints.map((c) => [b, c] as const));
  out.push('', '### Change points on main', '');
  if (cps.length === 0) out.push('None found.');
  for (const [b, c] of cps) out.push(`- ${changePointLine(b, c)}`);
  out.push(...renderPaired(suite));
  out.push('', '### Patterns by hour, weekday and week', '');
  for (const b of suite.benchmarks) {
    if (b.patterns.length === 0) continue;
    out.push(`- **${b.benchmark}**: ${b.patterns.map((p) => p.summary).join('; ')}`);
  }
  const reps = suite.benchmarks.filter((b) => b.repetitions.length > 0);
  if (reps.length > 0) {
    const counts = [...new Set(reps.flatMap((b) => b.repetitions.map((r) => r.repetitions)))].sort(
      (a, b) => a - b,
    );
    out.push(
      '',
      '### Repetitions vs error',
      '',
      'How far the median of r runs lands from the long-run mean (95% of random sets of r runs):',
      '',
    );
    out.push(
      `| benchmark | ${counts.map((c) => `${c} run${c > 1 ? 's' : ''}`).join(' | ')} |`,
      `| :-- |${counts.map(() => ' :-: |').join('')}`,
    );
    for (const b of reps) {
      const cells = counts.map((c) => {
        const r = b.repetitions.find((x) => x.repetitions === c);
        return r === undefined ? '–' : `[${signed(r.lower)}, ${signed(r.upper)}]`;
      });
      out.push(`| ${b.benchmark} | ${cells.join(' | ')} |`);
    }
  }
  const infra = suite.benchmarks.flatMap((b) => [
    ...b.infrastructure.comparisons.map((c) => `**${b.benchmark}**: ${c.summary}`),
    ...(b.infrastructure.reuse === null
      ? []
      : [`**${b.benchmark}**: ${b.infrastructure.reuse.summary}`]),
  ]);
  if (infra.length > 0) out.push('', '### Infrastructure', '', ...infra.map((l) => `- ${l}`));
  const notes = suite.benchmarks.flatMap((b) => b.notes.map((n) => `**${b.benchmark}**: ${n}`));
  if (notes.length > 0) out.push('', '### Notes', '', ...notes.map((n) => `- ${n}`));
  return out;
}

/**
 * The runs' paired comparisons against other commits: every one that called a change, and
 * how wide the intervals were (the smallest step they resolve). Nothing when none were made.
 */
function renderPaired(suite: SuiteVariability): string[] {
  const paired = suite.paired;
  if (paired === null) return [];
  const out = [
    '',
    "### Steps judged within one run (each run's head against its base commit, paired)",
    '',
    `${paired.comparisons} paired comparisons in ${paired.runs} runs; ${paired.called} called changed.`,
  ];
  const latest = paired.latest!;
  out.push(
    latest.called.length === 0
      ? `The latest (${day(latest.at)}, ${short(latest.baseCommit)}..${short(latest.headCommit)}): nothing called changed.`
      : `⚠️ The latest (${day(latest.at)}, ${short(latest.baseCommit)}..${short(latest.headCommit)}) called changed: ${latest.called.map((c) => `${c.benchmark} ${signed(c.step.change)}`).join(', ')}.`,
    '',
  );
  const widths = suite.benchmarks
    .filter((b) => b.paired.medianCiWidth !== null)
    .map((b) => b.paired.medianCiWidth!)
    .sort((a, b) => a - b);
  if (widths.length > 0) {
    const t = latest.threshold;
    out.push(
      `Median interval width per benchmark: ${pct(widths[0]!)} to ${pct(widths.at(-1)!)}: a step beyond ±${pct(t + widths[0]! / 2)} to ±${pct(t + widths.at(-1)! / 2)} (the threshold and half the width) is called the night it lands.`,
      '',
    );
  }
  const called = suite.benchmarks.flatMap((b) => b.paired.called.map((c) => [b, c] as const));
  for (const [b, c] of called) out.push(`- ${pairedLine(b.benchmark, c)}`);
  return out;
}

/** One line per paired step that called a change: size with CI, commits, verdict. */
export function pairedLine(benchmark: string, c: PairedStep): string {
  return `**${benchmark}** ${marked(c.verdict)} ${signed(c.change)} [${signed(c.ci.lower)}, ${signed(c.ci.upper)}] (${pct(c.ci.level, 0)} CI, threshold ±${pct(c.threshold, 1)}) in run ${c.runId} (${day(c.at)}), commits ${short(c.baseCommit)}..${short(c.headCommit)}`;
}

function row(b: BenchmarkVariability): string {
  const latest = b.values.at(-1);
  const ci = (s: StatisticInterval | null) =>
    s === null ? '–' : `${pct(s.estimate)} [${pct(s.lower)}, ${pct(s.upper)}]`;
  const cps =
    b.changePoints.length === 0
      ? 'none'
      : b.changePoints
          .map(
            (c) =>
              `${c.direction === 'regression' ? '🔴' : '🟢'} ${signed(c.step.change)} ${day(c.after.at)}`,
          )
          .join(', ');
  const found = b.patterns.filter((p) => p.found).map((p) => p.kind);
  const mde = b.noise.mdeRecent === null ? '–' : pct(b.noise.mdeRecent);
  return `| ${b.benchmark} | ${b.runs} | ${latest === undefined ? '–' : `${formatValue(latest.value)} ${b.unit}`} | ${ci(b.noise.withinRunCv)} | ${ci(b.noise.betweenRunCv)} | ${mde} | ${cps} | ${found.length === 0 ? (b.patterns.length === 0 ? '–' : 'none found') : found.join(', ')} |`;
}

/** One line per change point: size with CI, commit range, commits in range, test. */
export function changePointLine(b: BenchmarkVariability, c: ChangePoint): string {
  const step =
    c.step.lower === null
      ? `${signed(c.step.change)} (${c.step.note})`
      : `${signed(c.step.change)} [${signed(c.step.lower)}, ${signed(c.step.upper!)}]`;
  const range =
    c.range.compareUrl === null
      ? `${short(c.range.from)}..${short(c.range.to)}`
      : `[${short(c.range.from)}..${short(c.range.to)}](${c.range.compareUrl})`;
  const commits =
    c.commits === undefined
      ? ''
      : c.commits.length === 0
        ? '; no commits in range'
        : `; ${c.commits.length} commit(s): ${c.commits
            .slice(0, 5)
            .map((x) => (x.pullRequest === null ? short(x.id) : `#${x.pullRequest}`))
            .join(', ')}${c.commits.length > 5 ? ', …' : ''}`;
  return `**${b.benchmark}** ${marked(c.direction)} ${step} between runs ${c.before.runId} (${day(c.before.at)}) and ${c.after.runId} (${day(c.after.at)}), commits ${range}${commits}; ${c.step.runsBefore} runs before, ${c.step.runsAfter} after; p = ${formatP(c.pValue)}`;
}

function marked(direction: string): string {
  return direction === 'regression' ? '🔴 regression' : '🟢 improvement';
}

function formatValue(v: number): string {
  return Math.abs(v) >= 100 ? v.toFixed(1) : Math.abs(v) >= 1 ? v.toFixed(3) : v.toPrecision(3);
}
