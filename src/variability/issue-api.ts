import { getOctokit } from '@actions/github';
import { call as callApi, type Repository } from '../github/octokit-api.js';

const call = <T>(request: () => Promise<T>): Promise<T> =>
  callApi(request, ' (alert: issue needs "issues: write")');

export interface AlertIssue {
  number: number;
  body: string;
  state: 'open' | 'closed';
  url: string;
}

/** The issue calls of `alert: issue`, behind an interface (tests use a local fake API). */
export interface IssueApi {
  /** Every issue with the label, open or closed (all pages). */
  listIssues(label: string): Promise<AlertIssue[]>;
  createIssue(title: string, body: string, label: string): Promise<AlertIssue>;
  updateIssue(
    number: number,
    changes: { body?: string; state?: 'open' | 'closed' },
  ): Promise<AlertIssue>;
  createComment(number: number, body: string): Promise<string>;
}

/** `IssueApi` through Octokit; honours `GITHUB_API_URL`. */
export function createIssueApi(token: string, repository: Repository): IssueApi {
  const octokit = getOctokit(token, { baseUrl: process.env.GITHUB_API_URL || undefined });
  const { owner, repo } = repository;
  const issue = (d: {
    number: number;
    body?: string | null;
    state: string;
    html_url: string;
  }): AlertIssue => ({
    number: d.number,
    body: d.body ?? '',
    state: d.state === 'closed' ? 'closed' : 'open',
    url: d.html_url,
  });
  return {
    listIssues: (label) =>
      call(async () =>
        (
          await octokit.paginate(octokit.rest.issues.listForRepo, {
            owner,
            repo,
            labels: label,
            state: 'all',
            per_page: 100,
          })
        ).map(issue),
      ),
    createIssue: (title, body, label) =>
      call(async () =>
        issue(
          (await octokit.rest.issues.create({ owner, repo, title, body, labels: [label] })).data,
        ),
      ),
    updateIssue: (number, changes) =>
      call(async () =>
        issue(
          (await octokit.rest.issues.update({ owner, repo, issue_number: number, ...changes }))
            .data,
        ),
      ),
    createComment: (number, body) =>
      call(
        async () =>
          (await octokit.rest.issues.createComment({ owner, repo, issue_number: number, body }))
            .data.html_url,
      ),
  };
}
