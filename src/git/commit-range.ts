import { UserError } from '../errors.js';
import { pullRequestOf } from './pull-request.js';
import { readGit, runGit } from './run.js';

/** A commit of a range, as bisect lists it. */
export interface ListedCommit {
  id: string;
  subject: string;
  pullRequest: number | null;
  parents: string[];
}

/** The history reads bisect needs, behind an interface (tests use real repositories). */
export interface CommitRange {
  resolve(ref: string): Promise<string>;
  isAncestor(older: string, newer: string): Promise<boolean>;
  /**
   * Commits after `from` up to and including `to`, oldest first: along first parents only
   * (merged pull requests as units), or every commit of `from..to` in topological order.
   */
  list(from: string, to: string, firstParent: boolean): Promise<ListedCommit[]>;
  /** The commit itself, with its parents. */
  show(id: string): Promise<ListedCommit>;
  mergeBase(a: string, b: string): Promise<string | null>;
}

export class CommitRangeError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = 'CommitRangeError';
  }
}

const FORMAT = '--format=%H%x09%P%x09%s';

/** A `CommitRange` over the git repository at `cwd`. */
export function createCommitRange(cwd: string): CommitRange {
  const git = async (args: string[]): Promise<string> =>
    (
      await readGit(args, {
        cwd,
        fail: (detail) => new CommitRangeError(`git ${args.join(' ')} (in ${cwd}): ${detail}`),
      })
    ).trim();
  const parse = (out: string): ListedCommit[] =>
    out
      .split('\n')
      .filter((l) => l.length > 0)
      .map((line) => {
        const [id, parents, ...rest] = line.split('\t');
        const subject = rest.join('\t');
        return {
          id: id!,
          subject,
          pullRequest: pullRequestOf(subject),
          parents: parents!.split(' ').filter((p) => p.length > 0),
        };
      });
  return {
    resolve: (ref) =>
      git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]).catch(() => {
        throw new CommitRangeError(`git ref "${ref}" does not name a commit in ${cwd}`);
      }),
    isAncestor: async (older, newer) => {
      // exit 0: an ancestor; 1: not one; anything else: git could not tell (a bad id...)
      const args = ['merge-base', '--is-ancestor', older, newer];
      const result = await runGit(args, { cwd });
      if (result.code === 0 || result.code === 1) return result.code === 0;
      throw new CommitRangeError(`git ${args.join(' ')} (in ${cwd}): ${result.stderr.trim()}`);
    },
    list: async (from, to, firstParent) =>
      parse(
        await git([
          'log',
          FORMAT,
          '--reverse',
          ...(firstParent ? ['--first-parent'] : ['--topo-order']),
          `${from}..${to}`,
        ]),
      ),
    show: async (id) => parse(await git(['log', '-1', FORMAT, id]))[0]!,
    mergeBase: (a, b) => git(['merge-base', a, b]).catch(() => null),
  };
}
