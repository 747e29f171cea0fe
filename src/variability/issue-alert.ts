import type { SuiteVariability } from './analyze.js';
import {
  alertMarker,
  freshTargets,
  issueBody,
  planAlert,
  stateOf,
  type StepTarget,
} from './alert.js';
import type { IssueApi } from './issue-api.js';

export const ALERT_LABEL = 'duetkit-variability';

export interface AlertOutcome {
  action: 'opened' | 'updated' | 'cleared' | 'none';
  issue: number | null;
  url: string | null;
}

/**
 * Opens or updates the suite's one alert issue (found again by its hidden marker among the
 * issues with the label, open or closed: never a second one). A new condition updates the
 * body, adds a comment and reopens a closed issue; a cleared one says so once. With
 * `findCulprits` (`bisect: true`), the steps announced tonight are bisected first and the
 * issue names what each bisection found (a line per step key).
 */
export async function alertIssue(
  api: IssueApi,
  suite: SuiteVariability,
  now: Date,
  findCulprits?: (targets: StepTarget[]) => Promise<Record<string, string>>,
): Promise<AlertOutcome> {
  const marker = alertMarker(suite.suite);
  const existing =
    (await api.listIssues(ALERT_LABEL)).find((i) => i.body.startsWith(marker)) ?? null;
  const previous = existing === null ? null : stateOf(existing.body);
  const targets = findCulprits === undefined ? [] : freshTargets(suite, previous);
  const culprits = targets.length === 0 ? {} : await findCulprits!(targets);
  const plan = planAlert(suite, previous, now, culprits);
  if (plan.action === 'none') {
    return { action: 'none', issue: existing?.number ?? null, url: existing?.url ?? null };
  }
  const body = issueBody(suite.suite, plan);
  if (existing === null) {
    if (plan.action === 'clear') return { action: 'none', issue: null, url: null };
    const created = await api.createIssue(plan.title, body, ALERT_LABEL);
    return { action: 'opened', issue: created.number, url: created.url };
  }
  const reopen =
    plan.action === 'alert' && existing.state === 'closed' ? { state: 'open' as const } : {};
  const updated = await api.updateIssue(existing.number, { body, ...reopen });
  if (plan.comment !== null) await api.createComment(existing.number, plan.comment);
  return {
    action: plan.action === 'alert' ? 'updated' : 'cleared',
    issue: updated.number,
    url: updated.url,
  };
}
