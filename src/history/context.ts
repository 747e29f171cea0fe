import { readGit } from '../git/run.js';
import type { EntryCommit } from './schema.js';

/** What the entry says about where and why the run happened (the workflow, the runner). */
export interface RunContext {
  event: string | null;
  workflow: string | null;
  githubRunId: string | null;
  runAttempt: number | null;
  url: string | null;
  ref: string | null;
  runner: string | null;
  runnerImage: string | null;
  runnerImageVersion: string | null;
  /** `https://github.com/OWNER/REPO`, for commit links; null outside Actions. */
  repositoryUrl: string | null;
}

/** The run's context from the variables GitHub Actions sets; a CLI run outside it has few. */
export function runContextFromEnv(env: NodeJS.ProcessEnv, fallbackEvent = 'cli'): RunContext {
  const server = env.GITHUB_SERVER_URL || 'https://github.com';
  const repositoryUrl = env.GITHUB_REPOSITORY ? `${server}/${env.GITHUB_REPOSITORY}` : null;
  const runId = env.GITHUB_RUN_ID || null;
  const attempt = Number(env.GITHUB_RUN_ATTEMPT);
  const runAttempt = Number.isSafeInteger(attempt) && attempt >= 1 ? attempt : null;
  return {
    event: env.GITHUB_EVENT_NAME || fallbackEvent,
    workflow: env.GITHUB_WORKFLOW || null,
    githubRunId: runId,
    runAttempt,
    url:
      repositoryUrl !== null && runId !== null
        ? `${repositoryUrl}/actions/runs/${runId}${runAttempt !== null && runAttempt > 1 ? `/attempts/${runAttempt}` : ''}`
        : null,
    ref: env.GITHUB_REF || null,
    runner: runnerLabel(env),
    runnerImage: env.ImageOS || null,
    runnerImageVersion: env.ImageVersion || null,
    repositoryUrl,
  };
}

/** "GitHub Actions runner 'name' (Linux X64 ubuntu24 20250101.1)" from the runner's variables. */
export function runnerLabel(env: NodeJS.ProcessEnv): string | null {
  if (!env.RUNNER_NAME) return null;
  const details = [env.RUNNER_OS, env.RUNNER_ARCH, env.ImageOS, env.ImageVersion].filter(Boolean);
  return `GitHub Actions runner "${env.RUNNER_NAME}"${details.length > 0 ? ` (${details.join(' ')})` : ''}`;
}

/**
 * The run id of an entry: in Actions the workflow run id and attempt (a retried job publishes
 * the same id, so nothing is duplicated; a re-run attempt is a new run), else null.
 */
export function actionsRunId(context: RunContext): string | null {
  if (context.githubRunId === null) return null;
  return `${context.githubRunId}-${context.runAttempt ?? 1}`;
}

/**
 * The commit as git has it in `repoDir`: first line of the message, author, time. Read from
 * git, not from the event, so `schedule` and `workflow_dispatch` runs have it too. When the
 * commit is not in that repository, only its id (and link) — with `warning` saying so.
 */
export async function readCommit(
  repoDir: string,
  id: string,
  repositoryUrl: string | null,
): Promise<{ commit: EntryCommit; warning: string | null }> {
  const url = repositoryUrl === null ? null : `${repositoryUrl}/commit/${id}`;
  const format = '%H%x00%s%x00%an%x00%ae%x00%aI';
  const out = await readGit(['log', '-1', `--format=${format}`, '--end-of-options', id], {
    cwd: repoDir,
    env: { ...process.env, LC_ALL: 'C' },
  }).catch(() => null);
  const fields = out?.replace(/\n$/, '').split('\0');
  if (fields === undefined || fields.length !== 5 || fields[0] !== id) {
    return {
      commit: { id, message: '', author: null, timestamp: null, url },
      warning: `commit ${id} is not in the repository at ${repoDir}: the entry has its id only (no message, author or time)`,
    };
  }
  const [, message, name, email, timestamp] = fields as [string, string, string, string, string];
  return {
    commit: {
      id,
      message: message.slice(0, 1000),
      author: { name: name.slice(0, 300), email: email.slice(0, 300) },
      timestamp: new Date(Date.parse(timestamp)).toISOString(),
      url,
    },
    warning: null,
  };
}
