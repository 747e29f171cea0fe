import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Git } from './git.js';

/** Worktrees made for one run, removed together. */
export interface WorktreeSet {
  /** Checks `commit` out under the run's temporary directory; returns the checkout's path. */
  add(name: string, commit: string): Promise<string>;
  /** Removes every worktree made so far (also after a failure or an interruption). */
  dispose(): Promise<void>;
}

export function createWorktreeSet(git: Git, parent = os.tmpdir()): WorktreeSet {
  let root: string | null = null;
  const made: string[] = [];
  return {
    async add(name, commit) {
      root ??= await mkdtemp(path.join(parent, 'duetkit-worktrees-'));
      const dir = path.join(root, name);
      await git.addWorktree(dir, commit);
      made.push(dir);
      return dir;
    },
    async dispose() {
      const errors: string[] = [];
      for (const dir of made.splice(0)) {
        await git.removeWorktree(dir).catch((error: Error) => errors.push(error.message));
      }
      if (root !== null) await rm(root, { recursive: true, force: true });
      root = null;
      if (errors.length > 0) throw new Error(`could not remove worktrees: ${errors.join('; ')}`);
    },
  };
}
