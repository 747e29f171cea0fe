import type { BranchGit } from './git-branch.js';
import { entryPath, runKey } from './layout.js';
import { pruneCommit, type Retention } from './prune.js';
import { editHistory, type EditOptions } from './push-loop.js';
import { inFolder, listEntryFiles } from './read.js';
import type { HistoryEntry } from './schema.js';
import { editChanges } from './store.js';

export interface PublishOptions extends EditOptions {
  entry: HistoryEntry;
  /** Dashboard files written beside the data (name → content); none when null. */
  dashboard: ReadonlyMap<string, Buffer> | null;
  /** Prune the suite after publishing, in a commit of its own. */
  retention?: Retention | null;
}

export interface PublishResult {
  /** `published`, or `already` when the suite has an entry with this run id (a no-op). */
  status: 'published' | 'already';
  /** The entry's file, from the root of the branch. */
  path: string;
  /** The branch's commit after publishing. */
  commit: string;
  attempts: number;
  /** Pushes rejected because someone else pushed first. */
  retries: number;
  /** Entry files removed by retention. */
  pruned: string[];
  /** Corrupt files skipped while rebuilding the derived files. */
  warnings: string[];
}

/**
 * Adds one run to the history: fetch the branch (an orphan branch is created when it does not
 * exist), add the entry file, rebuild the derived files from the entries, write the
 * dashboard, commit, push — re-applied on the new tip when another job pushed first
 * (`pushWithRetries`). Publishing a run id the suite already has is a no-op.
 */
export async function publishEntry(options: PublishOptions): Promise<PublishResult> {
  const entry = options.entry;
  const relative = entryPath(entry.suite, entry.runId, entry.run.startedAt);
  const done = await editHistory<Omit<PublishResult, 'commit' | 'attempts' | 'retries'>>(
    options,
    async (git, tip, folder) => {
      if (tip !== null) {
        const key = runKey(entry.runId);
        const same = (await listEntryFiles(git, tip, folder, entry.suite)).find(
          (f) => f.location.runKey === key,
        );
        if (same !== undefined) {
          return {
            commit: null,
            result: { status: 'already', path: same.path, pruned: [], warnings: [] },
          };
        }
      }
      const built = await commitEntry(git, tip, folder, entry, relative, options);
      return {
        commit: built.commit,
        result: {
          status: 'published',
          path: inFolder(folder, relative),
          pruned: built.pruned,
          warnings: built.warnings,
        },
      };
    },
  );
  return { ...done.result, commit: done.commit!, attempts: done.attempts, retries: done.retries };
}

/** One commit with the entry and the derived files, and a second one pruning when asked. */
async function commitEntry(
  git: BranchGit,
  tip: string | null,
  folder: string,
  entry: HistoryEntry,
  relative: string,
  options: PublishOptions,
): Promise<{ commit: string; pruned: string[]; warnings: string[] }> {
  const { changes, warnings } = await editChanges(
    git,
    tip,
    folder,
    { suite: entry.suite, added: [{ path: relative, entry }], removed: new Set() },
    options.derivers,
  );
  for (const [name, content] of options.dashboard ?? [])
    changes.set(inFolder(folder, name), content);
  const short = entry.commit === null ? '' : ` at ${entry.commit.id.slice(0, 12)}`;
  let commit = await git.commit(
    tip,
    changes,
    `duetkit: ${entry.suite}: run ${entry.runId}${short}`,
  );
  let pruned: string[] = [];
  if (options.retention != null) {
    const result = await pruneCommit(git, commit, folder, entry.suite, {
      retention: options.retention,
      now: Date.now(),
      derivers: options.derivers,
    });
    if (result !== null) {
      commit = result.commit;
      pruned = result.removed;
      warnings.push(...result.warnings);
    }
  }
  return { commit, pruned, warnings };
}
