import type { ComparisonReport } from '../contracts/comparison.js';
import { PermissionError, type GitHubApi } from '../github/api.js';
import { upsertComment, type CommentPolicy } from '../github/upsert-comment.js';
import { overallVerdict } from './gate.js';
import type { ActionIo } from './io.js';

export interface PublishOptions {
  issue: number;
  suite: string;
  markdown: string;
  policy: CommentPolicy;
  report: ComparisonReport;
  /** Null when there is no token to post with. */
  api: GitHubApi | null;
}

const FORK_HELP =
  'the results are in the job summary and the results directory; post them with the fork-safe workflow_run pair (docs/action.md#pull-requests-from-forks)';

/**
 * Posts or updates the suite's PR comment and returns its URL ('' when none). A token that
 * may not comment (fork PRs, missing `pull-requests: write`) and any other API failure are
 * warnings, never failures: the report is already in the job summary.
 */
export async function publishComment(options: PublishOptions, io: ActionIo): Promise<string> {
  if (options.api === null) {
    io.warning(`no github-token: no PR comment; ${FORK_HELP}`);
    return '';
  }
  try {
    const result = await upsertComment(options.api, {
      issue: options.issue,
      suite: options.suite,
      body: options.markdown,
      policy: options.policy,
      // Not comparable alone is no news (it stays so run after run); nothing judged is.
      changed: overallVerdict(options.report.summary) !== 'unchanged',
    });
    if (result.action === 'skipped') io.info(`no PR comment: ${result.reason}`);
    else io.info(`PR comment ${result.action}: ${result.url}`);
    return result.url ?? '';
  } catch (error) {
    if (error instanceof PermissionError) {
      io.warning(
        `the token may not comment on PR #${options.issue} (${error.message}); ${FORK_HELP}`,
      );
    } else {
      io.warning(`could not post the PR comment: ${(error as Error).message}`);
    }
    return '';
  }
}
