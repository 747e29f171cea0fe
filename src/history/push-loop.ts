import { setTimeout as sleep } from 'node:timers/promises';
import type { BranchGit } from './git-branch.js';
import { normalizeFolder, openLocation, type HistoryLocation } from './read.js';
import type { Deriver } from './store.js';
import { UserError } from '../errors.js';

/** The push was refused, or every attempt lost a race: nothing was published. */
export class PublishError extends UserError {
  constructor(
    message: string,
    readonly kind: 'denied' | 'rejected' | 'contention',
  ) {
    super(message);
    this.name = 'RunError';
  }
}

export interface RetryOptions {
  /**
   * Attempts in all (a rejected push is fetched and re-applied). Default 30: with the default
   * backoff, at most about 4 minutes of waiting; 8 writers publishing back to back needed up
   * to 21 (BENCHMARKS.md).
   */
  maxAttempts?: number;
  /** Backoff before attempt k+1: uniform in [0, min(cap, base·2^k)] ms. Default 250 and 8000. */
  backoff?: { baseMs: number; capMs: number };
  /** Progress lines (retries), for the log. */
  log?: (line: string) => void;
  /** Random numbers for the jitter (tests make it repeatable). */
  random?: () => number;
}

/** What one attempt built on the tip it saw: a commit to push, or nothing to do. */
export interface Attempt<T> {
  commit: string | null;
  result: T;
}

/**
 * Fetch, build, push — again on a fresh tip when the push loses a race (someone else pushed
 * first), after a jittered exponential backoff, up to `maxAttempts`. Never forced: another
 * writer's commit is never overwritten, only built upon. A refusal that is not a race (no
 * permission, a protected branch) ends it at once. The remote is unchanged unless the push
 * succeeded: a ref update is all or nothing.
 */
export async function pushWithRetries<T>(
  git: BranchGit,
  build: (tip: string | null) => Promise<Attempt<T>>,
  options: RetryOptions = {},
): Promise<{ result: T; commit: string | null; attempts: number; retries: number }> {
  const maxAttempts = options.maxAttempts ?? 30;
  const backoff = options.backoff ?? { baseMs: 250, capMs: 8000 };
  const random = options.random ?? Math.random;
  const where = `${git.remote} (branch ${git.branch})`;
  for (let attempt = 1; ; attempt++) {
    const tip = await git.fetchTip();
    const built = await build(tip);
    if (built.commit === null) {
      return { result: built.result, commit: tip, attempts: attempt, retries: attempt - 1 };
    }
    const pushed = await git.push(built.commit);
    if (pushed.ok) {
      return {
        result: built.result,
        commit: built.commit,
        attempts: attempt,
        retries: attempt - 1,
      };
    }
    if (pushed.kind === 'denied') {
      throw new PublishError(`the token may not push to ${where}: ${pushed.message}`, 'denied');
    }
    if (pushed.kind === 'rejected') {
      throw new PublishError(`${where} refused the push: ${pushed.message}`, 'rejected');
    }
    if (attempt >= maxAttempts) {
      throw new PublishError(
        `${where} moved under each of ${maxAttempts} attempts (other jobs publishing at the same time); last refusal: ${pushed.message}`,
        'contention',
      );
    }
    const wait = Math.round(
      random() * Math.min(backoff.capMs, backoff.baseMs * 2 ** (attempt - 1)),
    );
    options.log?.(
      `the branch moved while publishing (attempt ${attempt} of ${maxAttempts}): fetching it again in ${wait} ms`,
    );
    await sleep(wait);
  }
}

/** Where a history edit happens, and how its push is retried. */
export interface EditOptions extends HistoryLocation, RetryOptions {
  /** Where the local clone goes (default the OS's temporary directory). */
  tmpDir?: string;
  /** Further derived files rebuilt for each suite the edit changes (`Deriver`). Default none. */
  derivers?: readonly Deriver[];
}

/**
 * The one skeleton of every change to a history (publish, prune, import): open the branch (a
 * temporary local clone), apply `edit` to the tip it fetched and commit, push — when another
 * job pushed first, fetch the new tip and apply `edit` again (`pushWithRetries`) — and remove
 * the clone, whatever happened. `edit` gets the clone, the tip (null: no branch yet) and the
 * history's folder in the branch; it returns its commit (null: nothing to change) and result.
 */
export async function editHistory<T>(
  options: EditOptions,
  edit: (git: BranchGit, tip: string | null, folder: string) => Promise<Attempt<T>>,
): Promise<{ result: T; commit: string | null; attempts: number; retries: number }> {
  const folder = normalizeFolder(options.path);
  const git = await openLocation(options);
  try {
    return await pushWithRetries(git, (tip) => edit(git, tip, folder), options);
  } finally {
    await git.dispose();
  }
}
