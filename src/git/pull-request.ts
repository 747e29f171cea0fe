/** The PR number of a merge or squash commit's subject ("Merge pull request #12", "... (#12)"). */
export function pullRequestOf(subject: string): number | null {
  const m = /^Merge pull request #(\d+)/.exec(subject) ?? /\(#(\d+)\)\s*$/.exec(subject);
  return m === null ? null : Number(m[1]);
}
