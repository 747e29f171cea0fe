import type { SuiteVariability } from './analyze.js';
import { changePointLine, pairedLine } from './render.js';

/** What the alert issue remembers between nights (kept in its body, hidden). */
export interface AlertState {
  version: 1;
  /**
   * Change points already announced: benchmark and the first run after the change; paired
   * steps already announced: benchmark and `paired:<run id>`.
   */
  known: { benchmark: string; runId: string }[];
  /** Whether the condition held on the last night the issue was updated. */
  active: boolean;
  /** When it last became active or cleared (ISO). */
  since: string | null;
  /**
   * What bisecting a step found (`bisect: true`), by `stepKey`, as the line the issue shows:
   * kept so that the body, rewritten every night, still names the culprits of earlier nights.
   */
  culprits?: Record<string, string>;
}

/** A step on main the alert announces tonight, for `bisect: true`: its benchmark and commits. */
export interface StepTarget {
  key: string;
  benchmark: string;
  /** The last commit before the step and the first after it. */
  from: string;
  to: string;
}

/** How the state names a step's bisection: benchmark and commit range. */
export function stepKey(benchmark: string, from: string | null, to: string | null): string {
  return `${benchmark}@${from ?? '?'}..${to ?? '?'}`;
}

export interface AlertPlan {
  /** `alert`: something new tonight; `clear`: the condition no longer holds; `none`: nothing to say. */
  action: 'alert' | 'clear' | 'none';
  state: AlertState;
  title: string;
  /** The issue body (without its hidden marker and state, see `issueBody`). */
  body: string;
  /** The comment for tonight's change (null when nothing changed). */
  comment: string | null;
}

/** The hidden line that identifies a suite's alert issue. */
export function alertMarker(suite: string): string {
  return `<!-- duetkit:variability-alert suite=${encodeURIComponent(suite)} -->`;
}

const STATE_PREFIX = '<!-- duetkit:variability-state ';

/** The issue's full body: marker, state and the visible text. */
export function issueBody(suite: string, plan: AlertPlan): string {
  // `>` escaped: a commit subject in the state must not end the HTML comment
  const state = JSON.stringify(plan.state).replace(/>/g, '\\u003e');
  return `${alertMarker(suite)}\n${STATE_PREFIX}${state} -->\n${plan.body}`;
}

/** The state kept in an issue body; null when there is none or it is unreadable. */
export function stateOf(body: string): AlertState | null {
  const at = body.indexOf(STATE_PREFIX);
  if (at < 0) return null;
  const end = body.indexOf(' -->', at);
  try {
    const state = JSON.parse(body.slice(at + STATE_PREFIX.length, end)) as AlertState;
    return state.version === 1 && Array.isArray(state.known) ? state : null;
  } catch {
    return null;
  }
}

/**
 * What tonight's report means for the suite's alert issue. The condition holds when a change
 * point appeared that the issue has not announced (one within 2 runs of an announced one, as
 * the estimate moves with new data, is the same), when the latest run's paired comparison
 * against its base commit (`base-from-history`) called a step the issue has not announced, or
 * when the latest run's A/A duet called something changed. An alert when it holds (new
 * things listed in a comment); a clear once, when it stopped holding; otherwise nothing. Pure.
 */
export function planAlert(
  suite: SuiteVariability,
  previous: AlertState | null,
  now: Date,
  culprits: Readonly<Record<string, string>> = {},
): AlertPlan {
  const known = previous?.known ?? [];
  const found = { ...previous?.culprits, ...culprits };
  const withCulprit = (line: string, key: string) =>
    found[key] === undefined ? line : `${line}\n  - ${found[key]}`;
  const fresh: string[] = [];
  const all: Known[] = [...known];
  for (const [b, c] of freshChangePoints(suite, known)) {
    fresh.push(
      withCulprit(`- ${changePointLine(b, c)}`, stepKey(b.benchmark, c.range.from, c.range.to)),
    );
    all.push({ benchmark: b.benchmark, runId: c.after.runId });
  }
  for (const c of freshPaired(suite, known)) {
    fresh.push(
      withCulprit(
        `- ${pairedLine(c.benchmark, c.step)}`,
        stepKey(c.benchmark, c.step.baseCommit, c.step.headCommit),
      ),
    );
    all.push(pairedKey(c.benchmark, c.step.runId));
  }
  const aa = suite.aa?.latest ?? null;
  const aaCalled = aa !== null && aa.calledChanged.length > 0;
  if (aaCalled) {
    fresh.push(
      `- ⚠️ the A/A duet of run ${aa.runId} (${aa.at.slice(0, 10)}) called changed: ${aa.calledChanged.join(', ')} — main against itself; tonight's runner would have misled a PR`,
    );
  }
  const active = fresh.length > 0;
  const wasActive = previous?.active ?? false;
  const action = active ? 'alert' : wasActive ? 'clear' : 'none';
  const since = action === 'none' ? (previous?.since ?? null) : now.toISOString();
  const state: AlertState = {
    version: 1,
    known: all,
    active,
    since,
    ...(Object.keys(found).length === 0 ? {} : { culprits: found }),
  };
  const day = now.toISOString().slice(0, 10);
  const title = `duetkit: variability alert for ${suite.suite}`;
  const status = active
    ? `**Status: ⚠️ active** since ${day}.`
    : `**Status: ✅ cleared** on ${(since ?? now.toISOString()).slice(0, 10)}: no new change point or step and a clean A/A duet since.`;
  const announced = suite.benchmarks.flatMap((b) =>
    b.changePoints
      .filter((c) => includes(all, { benchmark: b.benchmark, runId: c.after.runId }))
      .map((c) =>
        withCulprit(`- ${changePointLine(b, c)}`, stepKey(b.benchmark, c.range.from, c.range.to)),
      ),
  );
  const steps = suite.benchmarks.flatMap((b) =>
    b.paired.called
      .filter((c) => includes(all, pairedKey(b.benchmark, c.runId)))
      .map((c) =>
        withCulprit(
          `- ${pairedLine(b.benchmark, c)}`,
          stepKey(b.benchmark, c.baseCommit, c.headCommit),
        ),
      ),
  );
  const body = [
    `### ${title}`,
    '',
    status,
    '',
    'Change points on main that this issue announced:',
    '',
    ...(announced.length > 0 ? announced : ['- none in the current window']),
    '',
    ...(steps.length > 0
      ? [
          'Steps judged within one run (head against its base, paired) that it announced:',
          '',
          ...steps,
          '',
        ]
      : []),
    `<sub>Updated by duetkit's nightly variability job (${day}). It opens one issue per suite, never a second one, and says here when the condition clears.</sub>`,
  ].join('\n');
  const comment =
    action === 'alert'
      ? [`**${day}**: new tonight:`, '', ...fresh].join('\n')
      : action === 'clear'
        ? `**${day}**: ✅ cleared: no new change point or step, and the latest A/A duet called nothing changed.`
        : null;
  return { action, state, title, body, comment };
}

type Known = AlertState['known'][number];

/**
 * The steps tonight's alert would announce that have commits to bisect: new change points
 * (as `planAlert` judges them new) and the latest run's paired steps not yet announced.
 */
export function freshTargets(suite: SuiteVariability, previous: AlertState | null): StepTarget[] {
  const known = previous?.known ?? [];
  const targets: StepTarget[] = [];
  for (const [b, c] of freshChangePoints(suite, known)) {
    if (c.range.from === null || c.range.to === null) continue;
    const key = stepKey(b.benchmark, c.range.from, c.range.to);
    targets.push({ key, benchmark: b.benchmark, from: c.range.from, to: c.range.to });
  }
  for (const c of freshPaired(suite, known)) {
    if (c.step.headCommit === null) continue;
    const key = stepKey(c.benchmark, c.step.baseCommit, c.step.headCommit);
    targets.push({ key, benchmark: c.benchmark, from: c.step.baseCommit, to: c.step.headCommit });
  }
  return targets;
}

/** Change points the issue has not announced (one within 2 runs of an announced one is). */
function freshChangePoints(
  suite: SuiteVariability,
  known: readonly Known[],
): [
  SuiteVariability['benchmarks'][number],
  SuiteVariability['benchmarks'][number]['changePoints'][number],
][] {
  const out: ReturnType<typeof freshChangePoints> = [];
  for (const b of suite.benchmarks) {
    const position = new Map(b.values.map((v, i) => [v.runId, i]));
    for (const c of b.changePoints) {
      const seen = known.some(
        (k) =>
          k.benchmark === b.benchmark &&
          position.has(k.runId) &&
          Math.abs(position.get(k.runId)! - c.index) <= 2,
      );
      if (!seen) out.push([b, c]);
    }
  }
  return out;
}

/** The latest run's paired steps the issue has not announced. */
function freshPaired(suite: SuiteVariability, known: readonly Known[]) {
  return (suite.paired?.latest?.called ?? []).filter(
    (c) => !includes(known, pairedKey(c.benchmark, c.step.runId)),
  );
}

/** How the state remembers a paired step it announced. */
function pairedKey(benchmark: string, runId: string): Known {
  return { benchmark, runId: `paired:${runId}` };
}

function includes(list: readonly Known[], key: Known): boolean {
  return list.some((k) => k.benchmark === key.benchmark && k.runId === key.runId);
}
