import { readEvent, workflowRunOf } from '../github/event.js';
import { UserError } from '../errors.js';
import { renderMarkdown } from '../report/markdown.js';
import type { CommentInputs } from './inputs.js';
import { publishComment } from './publish.js';
import { readResults } from './results.js';
import { setCountOutputs, type StepDeps } from './run-step.js';

/**
 * `mode: comment`, the second half of the fork-safe pair: reads the results a `run` step
 * uploaded, checks they belong to the PR's current head, renders them afresh (the artifact
 * was made by untrusted code, so its comment.md is not trusted) and posts the comment. Never
 * runs anything from the PR.
 */
export async function commentStep(inputs: CommentInputs, deps: StepDeps): Promise<string | null> {
  const { io, env } = deps;
  const { run, report } = await readResults(inputs.resultsDirectory);
  const markdown = renderMarkdown(report, { ...run.meta, suite: run.suite });
  await deps.io.appendSummary(markdown);
  setCountOutputs(report, io);
  io.setOutput('results-directory', inputs.resultsDirectory);
  io.setOutput('comment-url', '');
  if (run.pullRequest === null) {
    io.info('the results are not from a pull request: no comment');
    return null;
  }
  const event = await readEvent(env);
  const trigger = workflowRunOf(event);
  if (trigger !== null && trigger.headSha !== run.pullRequest.headSha) {
    throw new UserError(
      `the results are for commit ${run.pullRequest.headSha}, but the workflow_run that triggered this was for ${trigger.headSha}: refusing to comment`,
    );
  }
  if (inputs.token === '' || event.repository === null) {
    io.warning('no github-token or GITHUB_REPOSITORY: cannot comment');
    return null;
  }
  const api = deps.api(inputs.token, event.repository);
  const { number, headSha } = run.pullRequest;
  const current = await api.pullHeadSha(number).catch((error: Error) => {
    throw new UserError(`cannot read PR #${number}: ${error.message}`);
  });
  if (current !== headSha) {
    io.warning(
      `PR #${number} is now at ${current}, not ${headSha} which these results measured: not commenting stale results`,
    );
    return null;
  }
  const url = await publishComment(
    { issue: number, suite: run.suite, markdown, policy: inputs.comment, report, api },
    io,
  );
  io.setOutput('comment-url', url);
  return null;
}
