import { readGit } from '../git/run.js';
import type { VariabilityReport } from './analyze.js';
import { pullRequestOf, type RangeCommit } from './change-points.js';

/** Commits after `from` up to and including `to` (`git log from..to`), newest first. */
export type CommitLister = (from: string, to: string) => Promise<RangeCommit[] | null>;

/** A lister over the git repository at `dir`; null when the range is not in it. */
export function gitCommitLister(dir: string): CommitLister {
  return async (from, to) => {
    const out = await readGit(['log', '--format=%H%x09%s', `${from}..${to}`], { cwd: dir }).catch(
      () => null,
    );
    if (out === null) return null;
    return out
      .split('\n')
      .filter((l) => l.length > 0)
      .map((line) => {
        const [id, ...rest] = line.split('\t');
        const subject = rest.join('\t');
        return { id: id!, subject, pullRequest: pullRequestOf(subject) };
      });
  };
}

/**
 * Fills each change point's commits from `list`; a range the repository does not have (a
 * shallow clone, another repository) is left without, and a note says so.
 */
export async function addCommits(report: VariabilityReport, list: CommitLister): Promise<string[]> {
  const missing: string[] = [];
  for (const suite of report.suites) {
    for (const b of suite.benchmarks) {
      for (const c of b.changePoints) {
        if (c.range.from === null || c.range.to === null) continue;
        const commits = await list(c.range.from, c.range.to);
        if (commits === null)
          missing.push(`${c.range.from.slice(0, 10)}..${c.range.to.slice(0, 10)}`);
        else c.commits = commits;
      }
    }
  }
  return missing.length === 0
    ? []
    : [
        `commits of ${missing.join(', ')} are not in this repository (fetch-depth: 0 in actions/checkout, or --repo DIR): listed without them`,
      ];
}
