import type { BranchGit } from './git-branch.js';
import { suiteKey } from './layout.js';
import { editHistory, type EditOptions } from './push-loop.js';
import { inFolder, listEntryFiles, loadEntries, type EntryFile } from './read.js';
import { editChanges, type Deriver } from './store.js';
import { timeOfName } from './derive.js';

/** How much of a suite's history to keep: its newest N runs, or its runs of the last D days. */
export type Retention =
  { keepRuns: number; keepDays?: undefined } | { keepDays: number; keepRuns?: undefined };

const DAY_MS = 24 * 3600 * 1000;

/**
 * The entry files (relative to the folder) that `retention` removes, oldest first. The order
 * and times come from the files' names (the run's start), so nothing needs downloading.
 */
export function prunePlan(
  files: readonly EntryFile[],
  retention: Retention,
  now: number,
): string[] {
  const names = files.map((f) => f.relative).sort();
  if (retention.keepRuns !== undefined)
    return names.slice(0, Math.max(0, names.length - retention.keepRuns));
  const cutoff = now - retention.keepDays * DAY_MS;
  return files
    .filter((f) => timeOfName(f.location.time) < cutoff)
    .map((f) => f.relative)
    .sort();
}

/**
 * A commit on `parent` that removes the suite's entries beyond `retention` (whole entry files)
 * and rebuilds the derived files (`derivers`: the further ones); null when nothing is to be
 * removed.
 */
export async function pruneCommit(
  git: BranchGit,
  parent: string,
  folder: string,
  suite: string,
  {
    retention,
    now,
    derivers,
  }: { retention: Retention; now: number; derivers?: readonly Deriver[] },
): Promise<{ commit: string; removed: string[]; warnings: string[] } | null> {
  const files = await listEntryFiles(git, parent, folder, suite);
  const removed = prunePlan(files, retention, now);
  if (removed.length === 0) return null;
  const { changes, warnings } = await editChanges(
    git,
    parent,
    folder,
    { suite, added: [], removed: new Set(removed) },
    derivers,
  );
  const commit = await git.commit(
    parent,
    changes,
    `duetkit: ${suite}: prune ${removed.length} run${removed.length === 1 ? '' : 's'} (${describeRetention(retention)})`,
  );
  return { commit, removed: removed.map((relative) => inFolder(folder, relative)), warnings };
}

export function describeRetention(retention: Retention): string {
  return retention.keepRuns !== undefined
    ? `keep the newest ${retention.keepRuns} runs`
    : `keep the runs of the last ${retention.keepDays} days`;
}

export interface PruneOptions extends EditOptions {
  retention: Retention;
  /** Only this suite. Default: every suite. */
  suite?: string;
  now?: number;
}

/**
 * Prunes every suite (or one) of a history: one commit per suite that loses runs, pushed
 * together, retried like a publish. Returns the entry files removed.
 */
export async function pruneHistory(
  options: PruneOptions,
): Promise<{ removed: string[]; commit: string | null; warnings: string[] }> {
  const done = await editHistory(options, async (git, tip, folder) => {
    const out = { removed: [] as string[], warnings: [] as string[] };
    if (tip === null) return { commit: null, result: out };
    const suites = new Map<string, string>();
    for (const { entry } of await suiteNames(git, tip, folder)) suites.set(suiteKey(entry), entry);
    let head = tip;
    for (const suite of [...suites.values()].sort()) {
      if (options.suite !== undefined && suite !== options.suite) continue;
      const pruned = await pruneCommit(git, head, folder, suite, {
        retention: options.retention,
        now: options.now ?? Date.now(),
        derivers: options.derivers,
      });
      if (pruned === null) continue;
      head = pruned.commit;
      out.removed.push(...pruned.removed);
      out.warnings.push(...pruned.warnings);
    }
    return { commit: head === tip ? null : head, result: out };
  });
  return { ...done.result, commit: done.commit };
}

/** The suites of the history, by name, from suites.json's source: each suite's newest entry. */
async function suiteNames(
  git: BranchGit,
  tip: string,
  folder: string,
): Promise<{ entry: string }[]> {
  const files = await listEntryFiles(git, tip, folder);
  const newest = new Map<string, EntryFile>();
  for (const f of files) newest.set(f.location.suiteKey, f);
  const { stored } = await loadEntries(git, [...newest.values()]);
  return stored.map((s) => ({ entry: s.entry.suite }));
}
