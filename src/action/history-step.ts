import { readDashboard } from '../dashboard/assets.js';
import { UserError } from '../errors.js';
import { previousRun, type PreviousRun } from '../history/base.js';
import type { GitHubEvent } from '../github/event.js';
import { PublishError } from '../history/push-loop.js';
import { publishRun } from '../history/publish-run.js';
import { readHistory } from '../history/read.js';
import { recentTrends } from '../history/trend.js';
import type { RunMeta } from '../report/run-meta.js';
import { VARIABILITY_HISTORY } from '../variability/history-hooks.js';
import type { HistoryInputs } from './history-inputs.js';
import type { ActionIo } from './io.js';

/** Events whose runs go into the history: the branch's own commits, and nightly runs. */
export const PUBLISHING_EVENTS = ['push', 'schedule', 'workflow_dispatch'] as const;

const TREND_RUNS = 20;

interface Where {
  inputs: HistoryInputs;
  /** `github-token`, used when `history-token` is empty. */
  githubToken: string;
  env: NodeJS.ProcessEnv;
}

/** The history's git remote: `owner/name` on the workflow's GitHub, else the URL or path given. */
export function historyRemote({ inputs, env }: Where): string | null {
  const repository = inputs.repository ?? env.GITHUB_REPOSITORY ?? null;
  if (repository === null || repository === '') return null;
  if (/^[A-Za-z0-9][\w-]*\/[\w.-]+$/.test(repository)) {
    return `${env.GITHUB_SERVER_URL || 'https://github.com'}/${repository}.git`;
  }
  return repository;
}

/** Where GitHub Pages serves the dashboard of a repository on github.com; '' elsewhere. */
export function dashboardUrl({ inputs, env }: Where): string {
  const repository = inputs.repository ?? env.GITHUB_REPOSITORY ?? '';
  const server = env.GITHUB_SERVER_URL || 'https://github.com';
  const m = /^([A-Za-z0-9][\w-]*)\/([\w.-]+)$/.exec(repository);
  if (m === null || server !== 'https://github.com') return '';
  const owner = m[1]!.toLowerCase();
  const site = m[2]!.toLowerCase() === `${owner}.github.io` ? '' : `/${m[2]}`;
  return `https://${owner}.github.io${site}/${inputs.path.replace(/^\/+|\/+$/g, '')}/`.replace(
    /\/\/$/,
    '/',
  );
}

function tokenOf(where: Where): string {
  return where.inputs.token !== '' ? where.inputs.token : where.githubToken;
}

/**
 * On a pull request with `publish: history`: the baseline branch's recent trend per benchmark,
 * read from the history (nothing is written). Any failure is a warning: the comment goes out
 * without the trend.
 */
export async function trendsForComment(
  where: Where,
  suite: string,
  io: ActionIo,
): Promise<RunMeta['trends'] | undefined> {
  const remote = historyRemote(where);
  if (remote === null) return undefined;
  try {
    const read = await readSuite(where, remote, suite, io);
    if (read.entries.length === 0) {
      io.info(
        `history: no runs of ${suite} yet on ${where.inputs.branch}: no trend in the comment`,
      );
      return undefined;
    }
    const trends = recentTrends(read.entries, TREND_RUNS);
    const runs = Math.min(TREND_RUNS, read.entries.length);
    return {
      label: `trend (last ${runs} run${runs === 1 ? '' : 's'})`,
      byBenchmark: Object.fromEntries([...trends].map(([name, t]) => [name, t.spark])),
    };
  } catch (error) {
    io.warning(
      `history: could not read the trend from ${where.inputs.branch}: ${(error as Error).message}`,
    );
    return undefined;
  }
}

/**
 * `base-from-history: true`: the suite's newest complete run on this ref, from the history,
 * whose commit is tonight's base. Null when the history has none yet (the caller runs an A/A
 * then). A history that cannot be read is an error: comparing with something else than asked
 * would pass unnoticed.
 */
export async function previousRunFromHistory(
  where: Where,
  suite: string,
  ref: string | null,
  io: ActionIo,
): Promise<PreviousRun | null> {
  const remote = historyRemote(where);
  if (remote === null) {
    throw new UserError(
      'Input "base-from-history": true needs the history: set "history-repository" (no GITHUB_REPOSITORY here)',
    );
  }
  let read;
  try {
    read = await readSuite(where, remote, suite, io);
  } catch (error) {
    throw new UserError(
      `Input "base-from-history": could not read the history of "${suite}" from ${where.inputs.branch} of ${remote}: ${(error as Error).message}`,
    );
  }
  return previousRun(read.entries, suite, ref);
}

/** One suite's entries from the history; the files it skipped become warnings. */
async function readSuite(where: Where, remote: string, suite: string, io: ActionIo) {
  const read = await readHistory({
    remote,
    branch: where.inputs.branch,
    path: where.inputs.path,
    suite,
    token: tokenOf(where),
    env: where.env,
  });
  for (const warning of read.warnings) io.warning(`history: ${warning}`);
  return read;
}

/**
 * `publish: history` after a run: on push, schedule and workflow_dispatch the results
 * directory becomes an entry (outputs `history-entry` and `dashboard-url`). Never from another
 * event; a token that may not push is a warning, not a failure. Returns why the step fails
 * (the push was refused otherwise, or lost every race), or null.
 */
export async function publishToHistory(
  where: Where,
  event: GitHubEvent,
  run: { resultsDir: string; suite: string; repoDir: string },
  io: ActionIo,
): Promise<string | null> {
  io.setOutput('history-entry', '');
  io.setOutput('dashboard-url', '');
  if (!(PUBLISHING_EVENTS as readonly string[]).includes(event.name)) {
    io.info(
      `history: not published, "${event.name}" is not ${PUBLISHING_EVENTS.join(', ')} (pull requests never write to the history)`,
    );
    return null;
  }
  const remote = historyRemote(where);
  const token = tokenOf(where);
  if (remote === null) {
    io.warning('history: not published: no history-repository and no GITHUB_REPOSITORY');
    return null;
  }
  if (token === '' && /^https?:\/\//.test(remote)) {
    io.warning(
      `history: not published: no token to push to ${remote} (github-token or history-token, with contents: write)`,
    );
    return null;
  }
  try {
    const { result } = await publishRun({
      remote,
      branch: where.inputs.branch,
      path: where.inputs.path,
      token,
      env: where.env,
      resultsDir: run.resultsDir,
      repoDir: run.repoDir,
      suite: run.suite,
      retention: where.inputs.retention,
      dashboard: await readDashboard(),
      ...VARIABILITY_HISTORY,
      log: (line) => io.info(`history: ${line}`),
      warn: (message) => io.warning(`history: ${message}`),
    });
    for (const warning of result.warnings) io.warning(`history: ${warning}`);
    const url = dashboardUrl(where);
    io.setOutput('history-entry', result.path);
    io.setOutput('dashboard-url', url);
    if (result.status === 'already')
      io.info(`history: this run is already in ${where.inputs.branch} (${result.path})`);
    else {
      const retried =
        result.retries === 0
          ? ''
          : ` after ${result.retries} lost push race${result.retries === 1 ? '' : 's'}`;
      io.info(
        `history: published ${result.path} to ${where.inputs.branch}${retried}${url === '' ? '' : `; dashboard: ${url}`}`,
      );
      if (result.pruned.length > 0) io.info(`history: pruned ${result.pruned.length} old runs`);
    }
    return null;
  } catch (error) {
    if (error instanceof PublishError && error.kind === 'denied') {
      io.warning(
        `history: ${error.message} — give the workflow "permissions: contents: write" or a history-token that may push`,
      );
      return null;
    }
    return `duetkit history: ${(error as Error).message}`;
  }
}
