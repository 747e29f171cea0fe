import type {
  BisectReport,
  DuetRecord,
  ProbeRecord,
  RangeCommit,
  Remainder,
  StepRecord,
} from '../contracts/bisect.js';
import { pooledDuets } from './search.js';

const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(2)}%`;
const short = (id: string) => `\`${id.slice(0, 10)}\``;
const interval = (d: DuetRecord) =>
  `${pct(d.change)} [${pct(d.lower)}, ${pct(d.upper)}] (${Math.round(d.level * 100)}% CI, ${d.pairs} pairs)`;
const CLASS: Record<ProbeRecord['class'], string> = {
  'like-good': 'like good',
  'like-bad': 'like bad',
  'in-between': 'in between',
  unclear: 'unclear',
  skipped: 'skipped (did not build)',
};

/** A commit as the report names it: short id, subject, and its pull request when known. */
export function commitLabel(c: RangeCommit): string {
  return `${short(c.id)} ${c.subject}${c.pullRequest === null || c.subject.includes(`#${c.pullRequest}`) ? '' : ` (#${c.pullRequest})`}`;
}

/** The bisect report as Markdown (terminal, job summary). Pure. */
export function renderBisect(report: BisectReport): string {
  const n = report.commits.length;
  const subjects = new Map(report.commits.map((c) => [c.id, c.subject]));
  const out = [
    `## duetkit bisect: ${short(report.good)}..${short(report.bad)}`,
    '',
    `${n} commit${n === 1 ? '' : 's'} after good (${report.firstParent ? 'first-parent history' : 'first-parent history, then inside merges'}), ${report.benchmark === null ? 'the benchmark' : `benchmark ${report.benchmark}`}, threshold ±${(report.threshold * 100).toFixed(1)}%.`,
    '',
    `**Good against bad**: ${interval(report.confirmation)}: ${
      report.status === 'no-change'
        ? 'no change beyond the threshold — nothing to bisect.'
        : report.status === 'inconclusive'
          ? 'could not be settled within the budget — nothing bisected.'
          : 'changed beyond the threshold.'
    }`,
  ];
  const how = modeLine(report);
  if (how !== null) out.push('', how);
  if (report.probes.length > 0) out.push('', ...probeTable(report.probes, subjects));
  for (const step of report.steps) out.push('', ...stepLines(step, report.steps.length));
  if (report.remainder != null) out.push('', ...remainderLines(report.remainder));
  out.push(
    '',
    `Duets: ${report.duets} of a budget of ${report.budget} (log2(N) + 2 = ${report.expectedDuets}); machine time ${duration(report.measureSeconds)} measuring, ${duration(report.buildSeconds)} building.`,
  );
  if (report.notes.length > 0) out.push('', ...report.notes.map((x) => `- ${x}`));
  return `${out.join('\n')}\n`;
}

/** How the probes ran, and with `--mode auto` why: each design's good-against-bad interval. */
function modeLine(report: BisectReport): string | null {
  if (report.mode === undefined) return null;
  const name =
    report.mode === 'rmit' ? 'RMIT rounds (one commit at a time)' : 'duets (both at once)';
  const choice = report.modeChoice;
  if (choice === undefined || choice === null) return `**Probes**: ${name}.`;
  const trial = (m: 'duet' | 'rmit') => {
    const t = choice.trials[m];
    return `${m} ${pct(t.change)} [${pct(t.lower)}, ${pct(t.upper)}] in ${t.seconds.toFixed(1)} s`;
  };
  const why = `(\`--mode auto\`) as the narrower interval per second of good against bad: ${trial('duet')}; ${trial('rmit')}`;
  return choice.switched
    ? `**Probes**: ${name}: the ${choice.chosen === 'rmit' ? 'RMIT rounds' : 'duets'} chosen ${why} could not settle good against bad, so the other design searched.`
    : `**Probes**: ${name}, chosen ${why}.`;
}

function probeTable(probes: readonly ProbeRecord[], subjects: Map<string, string>): string[] {
  return [
    '| commit | subject | against | change | interval | position | class |',
    '| :-- | :-- | :-- | --: | :-- | --: | :-- |',
    ...probes.map((p) => {
      const d = p.duets.length === 0 ? undefined : pooledDuets(p.duets);
      const cells =
        d === undefined
          ? ['–', p.reason ?? '', '–']
          : [
              pct(d.change),
              `[${pct(d.lower)}, ${pct(d.upper)}]${p.duets.length > 1 ? ` after ${p.duets.length} duets` : ''}`,
              p.position === null ? '–' : `${Math.round(p.position.fraction * 100)}%`,
            ];
      const against =
        p.segment === undefined
          ? p.end
          : `${p.end} of ${short(p.segment.from)}..${short(p.segment.to)}`;
      return `| ${short(p.commit)} | ${subjects.get(p.commit) ?? ''} | ${against} | ${cells.join(' | ')} | ${CLASS[p.class]} |`;
    }),
  ];
}

function stepLines(step: StepRecord, steps: number): string[] {
  const what = steps > 1 ? `A step (${Math.round(step.share * 100)}% of the change)` : 'Culprit';
  const out = [
    step.unresolved === null
      ? `**${what}**: ${commitLabel(step.culprit)}`
      : `**${what}** among ${step.alsoPossible.length + 1} commits, up to ${commitLabel(step.culprit)}: ${[...step.alsoPossible, step.culprit.id].map(short).join(', ')} (${step.unresolved})`,
    step.confirmation === null
      ? '- not confirmed: the budget was spent'
      : `- confirmation ${short(step.before)} → ${short(step.culprit.id)}: ${interval(step.confirmation)}${step.confirmed ? '' : ' — not beyond the threshold'}`,
  ];
  const inside = step.insideMerge;
  if (inside !== undefined) {
    out.push(
      `- inside the merge (its first parent against the merged branch): ${inside.status === 'no-change' ? 'the branch alone does not carry the change — the merge itself does' : `${inside.steps.length} step(s)`}`,
    );
    for (const s of inside.steps)
      out.push(
        `  - ${commitLabel(s.culprit)}${s.confirmation === null ? '' : `: ${interval(s.confirmation)}`}`,
      );
  }
  return out;
}

/** The change the first steps left unexplained, and each segment bisected again for it. */
function remainderLines(remainder: Remainder): string[] {
  const r = remainder.change;
  return [
    `**Searched again**: the steps first located left ${pct(r.change)} [${pct(r.lower)}, ${pct(r.upper)}] of the change unexplained.`,
    ...remainder.segments.map(
      (s) =>
        `- ${short(s.from)}..${short(s.to)}: ${interval(s.confirmation)} — ${SEGMENT[s.status]}`,
    ),
  ];
}

const SEGMENT: Record<Remainder['segments'][number]['status'], string> = {
  'no-change': 'no change beyond the threshold',
  inconclusive: 'not settled within the budget',
  found: 'a step found',
  narrowed: 'a step narrowed',
};

function duration(seconds: number): string {
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
}

/**
 * What a bisection found, as one line of the nightly alert issue: each pinned culprit with its
 * link, subject, pull request and the confirmation's interval; else what stopped it. Pure.
 */
export function alertLine(report: BisectReport, commitUrl: (id: string) => string | null): string {
  const link = (id: string) => {
    const url = commitUrl(id);
    return url === null ? short(id) : `[${short(id)}](${url})`;
  };
  if (report.status === 'no-change' || report.status === 'inconclusive') {
    return `bisect: a duet of ${short(report.good)} against ${short(report.bad)} gave ${interval(report.confirmation)}: ${report.status === 'no-change' ? 'no change beyond the threshold on this machine, nothing bisected' : 'inconclusive within the budget, nothing bisected'}`;
  }
  const steps = report.steps.map((s) => {
    const what =
      s.unresolved === null
        ? `culprit ${link(s.culprit.id)} ${s.culprit.subject}${s.culprit.pullRequest === null || s.culprit.subject.includes(`#${s.culprit.pullRequest}`) ? '' : ` (#${s.culprit.pullRequest})`}`
        : `among ${s.alsoPossible.length + 1} commits up to ${link(s.culprit.id)} (${s.unresolved})`;
    const confirmation =
      s.confirmation === null
        ? 'not confirmed (budget spent)'
        : `${short(s.before)} → ${short(s.culprit.id)}: ${interval(s.confirmation)}${s.confirmed ? '' : ', not beyond the threshold'}`;
    return `${what}; confirmation ${confirmation}`;
  });
  return `bisect (${report.duets} duets): ${steps.join('; ')}`;
}
