import { readFile } from 'node:fs/promises';

/** The workflow's triggering event, as the runner describes it in the environment. */
export interface GitHubEvent {
  /** `GITHUB_EVENT_NAME`: pull_request, push, workflow_run, ... */
  name: string;
  /** The webhook payload (`GITHUB_EVENT_PATH`), `{}` when there is none. */
  payload: Record<string, unknown>;
  /** `GITHUB_REPOSITORY` split, or null outside Actions. */
  repository: { owner: string; repo: string } | null;
  /** `GITHUB_SHA`. */
  sha: string | null;
}

/** The pull request an event is about. */
export interface PullRequestInfo {
  number: number;
  baseRef: string;
  baseSha: string;
  headSha: string;
  /** From another repository: its token is read-only, whatever the workflow asks for. */
  fork: boolean;
}

export async function readEvent(env: NodeJS.ProcessEnv): Promise<GitHubEvent> {
  const file = env.GITHUB_EVENT_PATH;
  let payload: Record<string, unknown> = {};
  if (file !== undefined && file !== '') {
    try {
      payload = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    } catch (error) {
      throw new Error(`cannot read the event payload ${file}: ${(error as Error).message}`);
    }
  }
  const [owner, repo] = (env.GITHUB_REPOSITORY ?? '').split('/');
  return {
    name: env.GITHUB_EVENT_NAME ?? '',
    payload,
    repository: owner && repo ? { owner, repo } : null,
    sha: env.GITHUB_SHA || null,
  };
}

/** The PR of a `pull_request` / `pull_request_target` event, else null. */
export function pullRequestOf(event: GitHubEvent): PullRequestInfo | null {
  const pr = event.payload.pull_request as Record<string, unknown> | undefined;
  if (pr === undefined || pr === null) return null;
  const base = (pr.base ?? {}) as Record<string, unknown>;
  const head = (pr.head ?? {}) as Record<string, unknown>;
  const number = Number(pr.number ?? event.payload.number);
  if (!Number.isSafeInteger(number) || typeof base.sha !== 'string') return null;
  if (typeof head.sha !== 'string') return null;
  const repoName = (side: Record<string, unknown>): string | undefined =>
    (side.repo as { full_name?: string } | null | undefined)?.full_name;
  const headRepo = repoName(head);
  return {
    number,
    baseRef: typeof base.ref === 'string' ? base.ref : '',
    baseSha: base.sha,
    headSha: head.sha,
    // A deleted fork has no head repo: still a fork.
    fork: headRepo === undefined || headRepo !== repoName(base),
  };
}

/** The `workflow_run` that triggered this one (fork-safe pair), else null. */
export function workflowRunOf(event: GitHubEvent): { headSha: string; event: string } | null {
  if (event.name !== 'workflow_run') return null;
  const run = event.payload.workflow_run as { head_sha?: unknown; event?: unknown } | undefined;
  if (typeof run?.head_sha !== 'string') return null;
  return { headSha: run.head_sha, event: String(run.event ?? '') };
}
