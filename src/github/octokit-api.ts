import { getOctokit } from '@actions/github';
import { PermissionError, type GitHubApi, type IssueComment } from './api.js';

export interface Repository {
  owner: string;
  repo: string;
}

/** `GitHubApi` through Octokit; honours `GITHUB_API_URL` (GitHub Enterprise, tests). */
export function createGitHubApi(token: string, repository: Repository): GitHubApi {
  const octokit = getOctokit(token, { baseUrl: process.env.GITHUB_API_URL || undefined });
  const { owner, repo } = repository;
  const comment = (data: { id: number; body?: string; html_url: string }): IssueComment => ({
    id: data.id,
    body: data.body ?? '',
    url: data.html_url,
  });
  return {
    listComments: (issue) =>
      call(async () =>
        (
          await octokit.paginate(octokit.rest.issues.listComments, {
            owner,
            repo,
            issue_number: issue,
            per_page: 100,
          })
        ).map(comment),
      ),
    createComment: (issue, body) =>
      call(async () =>
        comment(
          (await octokit.rest.issues.createComment({ owner, repo, issue_number: issue, body }))
            .data,
        ),
      ),
    updateComment: (id, body) =>
      call(async () =>
        comment(
          (await octokit.rest.issues.updateComment({ owner, repo, comment_id: id, body })).data,
        ),
      ),
    pullHeadSha: (pull) =>
      call(
        async () =>
          (await octokit.rest.pulls.get({ owner, repo, pull_number: pull })).data.head.sha,
      ),
  };
}

/**
 * Octokit's 401/403 become `PermissionError` (with `hint` after the message); everything else
 * propagates with its message.
 */
export async function call<T>(request: () => Promise<T>, hint = ''): Promise<T> {
  try {
    return await request();
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (status === 401 || status === 403) {
      throw new PermissionError(
        `GitHub API answered ${status}: ${(error as Error).message}${hint}`,
        status,
      );
    }
    throw error;
  }
}
