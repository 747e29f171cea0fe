import path from 'node:path';
import type { Retention } from '../history/prune.js';
import { DEFAULT_BRANCH, DEFAULT_PATH } from '../history/read.js';

/** The inputs of `publish: history` (docs/history.md), read once with the others. */
export interface HistoryInputs {
  /** `history`: add the run to the history (push, schedule, workflow_dispatch only). */
  publish: 'none' | 'history';
  branch: string;
  path: string;
  /** `owner/name`, a git URL or a local path; null: the workflow's own repository. */
  repository: string | null;
  /** Token that pushes to the history; '' falls back to `github-token`. */
  token: string;
  retention: Retention | null;
}

type Fail = (name: string, message: string) => never;

/**
 * Reads the history inputs with the action's `text` reader (trimmed, null when empty). `fail`
 * throws the action's InputError, so messages look like every other input's.
 */
export function parseHistoryInputs(
  text: (name: string) => string | null,
  workingDirectory: string,
  fail: Fail,
): HistoryInputs {
  const publish = text('publish') ?? 'none';
  if (publish !== 'none' && publish !== 'history') {
    fail('publish', `got ${JSON.stringify(publish)}; accepted: none, history`);
  }
  const branch = text('history-branch') ?? DEFAULT_BRANCH;
  if (!/^[A-Za-z0-9._/-]+$/.test(branch) || branch.startsWith('-') || branch.includes('..')) {
    fail('history-branch', `got ${JSON.stringify(branch)}; expected a branch name like gh-pages`);
  }
  const folder = text('history-path') ?? DEFAULT_PATH;
  if (folder.split('/').includes('..') || path.isAbsolute(folder)) {
    fail(
      'history-path',
      `got ${JSON.stringify(folder)}; expected a folder inside the branch, like duetkit`,
    );
  }
  const repository = text('history-repository');
  const keepRuns = text('history-keep-runs');
  const keepDays = text('history-keep-days');
  const count = (name: string, value: string): number => {
    const n = /^\d+$/.test(value) ? Number(value) : NaN;
    if (!(Number.isSafeInteger(n) && n >= 1))
      fail(name, `got ${JSON.stringify(value)}; expected a whole number ≥ 1`);
    return n;
  };
  if (keepRuns !== null && keepDays !== null) {
    fail('history-keep-days', 'give history-keep-runs or history-keep-days, not both');
  }
  const retention: Retention | null =
    keepRuns !== null
      ? { keepRuns: count('history-keep-runs', keepRuns) }
      : keepDays !== null
        ? { keepDays: count('history-keep-days', keepDays) }
        : null;
  const isLocal =
    repository !== null &&
    !/^[A-Za-z0-9][\w-]*\/[\w.-]+$/.test(repository) &&
    !/^[a-z][a-z0-9+.-]*:\/\//i.test(repository) &&
    !/^[^/]+@[^/]+:/.test(repository);
  return {
    publish: publish as HistoryInputs['publish'],
    branch,
    path: folder,
    repository: isLocal ? path.resolve(workingDirectory, repository) : repository,
    token: text('history-token') ?? '',
    retention,
  };
}

/** Inputs that only matter to `mode: run`. */
export const HISTORY_INPUT_NAMES = [
  'publish',
  'history-branch',
  'history-path',
  'history-repository',
  'history-token',
  'history-keep-runs',
  'history-keep-days',
] as const;
