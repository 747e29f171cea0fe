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
  return `${alertMarker(suite)}\n${STATE_PREFIX}${JSON.stringify(plan.state)} -->\n${plan.body}`;
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
): AlertPlan {
  const known = previous?.known ?? [];
  const fresh: string[] = [];
  const all: Known[] = [...known];
  for (const b of suite.benchmarks) {
    const position = new Map(b.values.map((v, i) => [v.runId, i]));
    for (const c of b.changePoints) {
      const here = c.index;
      const seen = known.some(
        (k) =>
          k.benchmark === b.benchmark &&
          position.has(k.runId) &&
          Math.abs(position.get(k.runId)! - here) <= 2,
      );
      if (!seen) {
        fresh.push(`- ${changePointLine(b, c)}`);
        all.push({ benchmark: b.benchmark, runId: c.after.runId });
      }
    }
  }
  for (const c of suite.paired?.latest?.called ?? []) {
    const key = pairedKey(c.benchmark, c.step.runId);
    if (includes(known, key)) continue;
    fresh.push(`- ${pairedLine(c.benchmark, c.step)}`);
    all.push(key);
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
  const state: AlertState = { version: 1, known: all, active, since };
  const day = now.toISOString().slice(0, 10);
  const title = `duetkit: variability alert for ${suite.suite}`;
  const status = active
    ? `**Status: ⚠️ active** since ${day}.`
    : `**Status: ✅ cleared** on ${(since ?? now.toISOString()).slice(0, 10)}: no new change point or step and a clean A/A duet since.`;
  const announced = suite.benchmarks.flatMap((b) =>
    b.changePoints
      .filter((c) => includes(all, { benchmark: b.benchmark, runId: c.after.runId }))
      .map((c) => `- ${changePointLine(b, c)}`),
  );
  const steps = suite.benchmarks.flatMap((b) =>
    b.paired.called
      .filter((c) => includes(all, pairedKey(b.benchmark, c.runId)))
      .map((c) => `- ${pairedLine(b.benchmark, c)}`),
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

/** How the state remembers a paired step it announced. */
function pairedKey(benchmark: string, runId: string): Known {
  return { benchmark, runId: `paired:${runId}` };
}

function includes(list: readonly Known[], key: Known): boolean {
  return list.some((k) => k.benchmark === key.benchmark && k.runId === key.runId);
}
