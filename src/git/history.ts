import { readGit } from './run.js';

/** The git history operations the action needs to find base and head. */
export interface GitHistory {
  /** Full commit id of `rev`, or null when it does not resolve here. */
  resolve(rev: string): Promise<string | null>;
  /** The best common ancestor, or null when there is none in the local history. */
  mergeBase(a: string, b: string): Promise<string | null>;
  isShallow(): Promise<boolean>;
  /** Deepens a shallow clone to the full history and fetches the named commits from origin. */
  fetchHistory(commits: readonly string[]): Promise<void>;
}

/** `GitHistory` running the real `git` in `cwd`. */
export function createGitHistory(cwd: string): GitHistory {
  const git = async (args: string[]): Promise<string> => (await readGit(args, { cwd })).trim();
  return {
    resolve: (rev) =>
      git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`]).catch(
        () => null,
      ),
    mergeBase: (a, b) => git(['merge-base', '--end-of-options', a, b]).catch(() => null),
    isShallow: async () => (await git(['rev-parse', '--is-shallow-repository'])) === 'true',
    fetchHistory: async (commits) => {
      if ((await git(['rev-parse', '--is-shallow-repository'])) === 'true') {
        await git(['fetch', '--no-tags', '--quiet', '--unshallow', 'origin']);
      }
      for (const commit of commits) {
        if ((await git(['cat-file', '-e', `${commit}^{commit}`]).catch(() => null)) !== null) {
          continue;
        }
        await git(['fetch', '--no-tags', '--quiet', 'origin', commit]);
      }
    },
  };
}
