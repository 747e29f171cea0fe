/** One comment on an issue or pull request. */
export interface IssueComment {
  id: number;
  body: string;
  url: string;
}

/**
 * The few GitHub REST calls the action makes, behind an interface: the real one
 * (`createGitHubApi`, Octokit) talks to `GITHUB_API_URL`; tests point that at a local server.
 */
export interface GitHubApi {
  /** Every comment of the issue/PR, oldest first (all pages). */
  listComments(issue: number): Promise<IssueComment[]>;
  createComment(issue: number, body: string): Promise<IssueComment>;
  updateComment(id: number, body: string): Promise<IssueComment>;
  /** The PR's current head commit. */
  pullHeadSha(pull: number): Promise<string>;
}

/**
 * The token may not do this: a fork PR's read-only token (403), or a token without
 * `pull-requests: write`. Never a reason to fail the job.
 */
export class PermissionError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'PermissionError';
  }
}
