import { UserError } from '../errors.js';
import type { GitHistory } from '../git/history.js';
import { pullRequestOf, type GitHubEvent } from '../github/event.js';

/** The two commits to compare, and how they were chosen (for the log and the report). */
export interface BaseHead {
  base: string;
  head: string;
  how: string;
}

const NO_COMMIT = /^0+$/;
const FETCH_DEPTH_HINT =
  'the history needed is missing from this clone; set "fetch-depth: 0" on actions/checkout';

/**
 * Base and head of the comparison. Given refs win. Otherwise, on `pull_request` the base is
 * the merge base of the PR's base branch and its head (what the PR changes, not whatever
 * else landed on the base branch), and on `push` the branch's previous tip (`before`). A
 * shallow clone is deepened once; if that is not enough the error says to set fetch-depth: 0.
 */
export async function resolveBaseHead(
  given: { baseRef: string | null; headRef: string | null },
  event: GitHubEvent,
  git: GitHistory,
): Promise<BaseHead> {
  const pr = pullRequestOf(event);
  const before = event.payload.before;
  const headRev =
    given.headRef ??
    pr?.headSha ??
    (event.name === 'push' && typeof event.payload.after === 'string'
      ? event.payload.after
      : null) ??
    event.sha ??
    'HEAD';
  const head = await commitOf(headRev, given.headRef === null ? 'the head' : 'head-ref', git);
  if (given.baseRef !== null) {
    return { base: await commitOf(given.baseRef, 'base-ref', git), head, how: 'base-ref input' };
  }
  if (pr !== null) {
    const baseTip = await commitOf(pr.baseSha, `the PR's base (${pr.baseRef})`, git);
    let base = await git.mergeBase(baseTip, head);
    if (base === null && (await git.isShallow())) {
      await fetchOrExplain(git, []);
      base = await git.mergeBase(baseTip, head);
    }
    if (base === null) {
      throw new UserError(
        `no merge base of the PR's base ${pr.baseRef} (${baseTip.slice(0, 12)}) and head ${head.slice(0, 12)}: ${FETCH_DEPTH_HINT}`,
      );
    }
    return { base, head, how: `merge base of ${pr.baseRef} and the PR head` };
  }
  if (event.name === 'push') {
    const previous = typeof before === 'string' && !NO_COMMIT.test(before) ? before : `${head}^`;
    return {
      base: await commitOf(previous, 'the previous commit of the branch', git),
      head,
      how: 'previous commit of the branch',
    };
  }
  throw new UserError(
    `Input "base-ref": required for "${event.name || 'unknown'}" events (duetkit finds the base by itself only on pull_request and push)`,
  );
}

async function commitOf(rev: string, what: string, git: GitHistory): Promise<string> {
  const found = (await git.resolve(rev)) ?? (await git.resolve(`origin/${rev}`));
  if (found !== null) return found;
  await fetchOrExplain(git, /^[0-9a-f]{40}$/.test(rev) ? [rev] : [], what);
  const fetched = (await git.resolve(rev)) ?? (await git.resolve(`origin/${rev}`));
  if (fetched !== null) return fetched;
  throw new UserError(`${what} "${rev}" is not a commit of this repository: ${FETCH_DEPTH_HINT}`);
}

async function fetchOrExplain(
  git: GitHistory,
  commits: string[],
  what = 'the merge base',
): Promise<void> {
  try {
    await git.fetchHistory(commits);
  } catch (error) {
    throw new UserError(
      `${what}: ${FETCH_DEPTH_HINT} (fetching it failed: ${(error as Error).message})`,
    );
  }
}
