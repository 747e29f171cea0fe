import { rm } from 'node:fs/promises';
import { UserError } from '../errors.js';
import { readGit } from './run.js';

/** The git operations duetkit needs, behind an interface so callers can be tested alone. */
export interface Git {
  /** Top-level directory of the repository containing `cwd`, or null outside one. */
  topLevel(): Promise<string | null>;
  /** Full commit id of `ref`; throws naming the ref when it does not resolve. */
  resolveCommit(ref: string): Promise<string>;
  /** True when the work tree has uncommitted changes. */
  isDirty(): Promise<boolean>;
  /** Checks `commit` out, detached, in a new worktree at `dir`. */
  addWorktree(dir: string, commit: string): Promise<void>;
  /** Removes the worktree at `dir`, uncommitted files and all. */
  removeWorktree(dir: string): Promise<void>;
  /** Absolute paths of all worktrees of the repository (the main one first). */
  listWorktrees(): Promise<string[]>;
}

export class GitError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = 'RunError';
  }
}

/** A `Git` running the real `git` command in `cwd`. */
export function createGit(cwd: string): Git {
  const git = async (args: string[]): Promise<string> =>
    (
      await readGit(args, {
        cwd,
        fail: (detail) => new GitError(`git ${args.join(' ')} (in ${cwd}): ${detail}`),
      })
    ).trim();
  return {
    topLevel: () => git(['rev-parse', '--show-toplevel']).catch(() => null),
    resolveCommit: (ref) =>
      git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]).catch(() => {
        throw new GitError(`git ref "${ref}" does not name a commit in the repository at ${cwd}`);
      }),
    isDirty: async () => (await git(['status', '--porcelain', '--untracked-files=no'])) !== '',
    addWorktree: async (dir, commit) =>
      void (await git(['worktree', 'add', '--detach', dir, commit])),
    removeWorktree: async (dir) => {
      try {
        await git(['worktree', 'remove', '--force', dir]);
      } catch (error) {
        // git refuses when the checkout changes under it (a benchmark's last files still
        // being written as its processes are killed): the directory is ours, a temporary
        // checkout, so it goes, and git forgets it. Still listed afterwards: the first error.
        await rm(dir, { recursive: true, force: true });
        await git(['worktree', 'prune']);
        const left = (await git(['worktree', 'list', '--porcelain']))
          .split('\n')
          .some((line) => line === `worktree ${dir}`);
        if (left) throw error;
        return;
      }
      await git(['worktree', 'prune']);
    },
    listWorktrees: async () =>
      (await git(['worktree', 'list', '--porcelain']))
        .split('\n')
        .filter((line) => line.startsWith('worktree '))
        .map((line) => line.slice('worktree '.length)),
  };
}
