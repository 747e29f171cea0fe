import { createGit } from '../git/git.js';
import { readGit } from '../git/run.js';

/** What `duetkit init` asks git about the repository it writes into. */
export interface RepoProbe {
  /** Top-level directory of the repository holding `dir`, or null outside one. */
  topLevel(dir: string): Promise<string | null>;
  /** True when `ref` names a commit of the repository holding `dir`. */
  hasCommit(dir: string, ref: string): Promise<boolean>;
  /** The branch pushes to which are benchmarked: origin's default, else the current one. */
  defaultBranch(dir: string): Promise<string | null>;
}

/** A `RepoProbe` running the real `git`. */
export function createRepoProbe(): RepoProbe {
  const git = (dir: string, args: string[]): Promise<string | null> =>
    readGit(args, { cwd: dir }).then(
      (out) => out.trim(),
      () => null,
    );
  return {
    topLevel: (dir) => createGit(dir).topLevel(),
    hasCommit: (dir, ref) =>
      createGit(dir)
        .resolveCommit(ref)
        .then(
          () => true,
          () => false,
        ),
    async defaultBranch(dir) {
      const remote = await git(dir, [
        'symbolic-ref',
        '--quiet',
        '--short',
        'refs/remotes/origin/HEAD',
      ]);
      if (remote !== null && remote.startsWith('origin/')) return remote.slice('origin/'.length);
      const current = await git(dir, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
      return current === null || current === '' ? null : current;
    },
  };
}
