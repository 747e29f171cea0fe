import type { HistoryEntry } from './schema.js';

/** The run whose commit becomes tonight's base (`base-from-history: true`). */
export interface PreviousRun {
  runId: string;
  /** Its start (ISO). */
  at: string;
  commit: string;
  ref: string | null;
}

/**
 * The newest run of a suite that measured a commit, complete, on the given ref when entries
 * record one (a nightly of main compares with main's previous run, not with a branch's). Runs
 * with no commit (outside git, imported without one) cannot be a base and are passed over.
 * Null when there is none. Pure.
 */
export function previousRun(
  entries: readonly HistoryEntry[],
  suite: string,
  ref: string | null,
): PreviousRun | null {
  let best: PreviousRun | null = null;
  let bestAt = -Infinity;
  for (const e of entries) {
    if (e.suite !== suite || !e.run.complete || e.commit === null) continue;
    if (ref !== null && e.run.ref !== null && e.run.ref !== ref) continue;
    const at = Date.parse(e.run.startedAt);
    if (!(at > bestAt)) continue;
    bestAt = at;
    best = { runId: e.runId, at: new Date(at).toISOString(), commit: e.commit.id, ref: e.run.ref };
  }
  return best;
}
