import { runSetup } from '../runner/setup.js';
import type { WorktreeSet } from '../git/worktrees.js';
import path from 'node:path';

/** A commit checked out and built, or why it could not be. */
export type Checkout = { ok: true; dir: string } | { ok: false; reason: string };

export interface CheckoutOptions {
  worktrees: WorktreeSet;
  /** Build command run once in each checkout; none: the checkout as it is. */
  setup?: readonly string[];
  /** The directory inside the checkout to run in (a scenario version's `dir`). */
  dir?: string;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
}

/**
 * Each commit checked out once as a git worktree and built once; every later probe of it
 * reuses the same directory. A build that fails is remembered (the commit is skipped, like
 * `git bisect skip`), with the tail of its output. `seconds`: time spent building.
 */
export function createCheckouts(options: CheckoutOptions): {
  get(commit: string): Promise<Checkout>;
  seconds(): number;
} {
  const made = new Map<string, Promise<Checkout>>();
  let seconds = 0;
  const prepare = async (commit: string): Promise<Checkout> => {
    const root = await options.worktrees.add(commit.slice(0, 12), commit);
    const dir = options.dir === undefined ? root : path.join(root, options.dir);
    if (options.setup === undefined) return { ok: true, dir };
    const start = performance.now();
    try {
      await runSetup(options.setup, {
        version: commit.slice(0, 10),
        cwd: dir,
        env: options.env,
        signal: options.signal,
      });
      return { ok: true, dir };
    } catch (error) {
      if (options.signal.aborted) throw error;
      return { ok: false, reason: (error as Error).message.split('\n').slice(0, 6).join(' ') };
    } finally {
      seconds += (performance.now() - start) / 1000;
    }
  };
  return {
    get(commit) {
      let checkout = made.get(commit);
      if (checkout === undefined) {
        checkout = prepare(commit);
        made.set(commit, checkout);
      }
      return checkout;
    },
    seconds: () => seconds,
  };
}
