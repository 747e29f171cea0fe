import { UserError } from '../errors.js';
import { entryPath } from './layout.js';
import { parseGabData, renderGabData, type GabEntry } from '../formats/gab.js';
import { entryFromGab, gabEntryOf } from './gab-entry.js';
import { editHistory, type EditOptions } from './push-loop.js';
import { inFolder, readHistory, type HistoryLocation, type StoredEntry } from './read.js';
import { addEntriesChanges } from './store.js';

export interface ImportGabOptions extends EditOptions {
  /** The data.js text and its name (for errors). */
  text: string;
  file: string;
  /** Each data.js benchmark set (github-action-benchmark's `name`) becomes a suite of that name. */
  suiteFromName: boolean;
  /** Otherwise everything goes into this suite (default: the only set's name). */
  suite?: string;
  dashboard: ReadonlyMap<string, Buffer> | null;
}

/**
 * Imports a github-action-benchmark data.js into the history in one commit: one entry per
 * data.js entry, the derived files rebuilt. Runs already imported are skipped (the run id is
 * the commit and the date), so importing the same file again changes nothing.
 */
export async function importGab(
  options: ImportGabOptions,
): Promise<{ added: number; skipped: number; suites: string[]; commit: string | null }> {
  const data = parseGabData(options.text, options.file);
  const names = Object.keys(data.entries);
  if (names.length === 0)
    throw new UserError(`${options.file} has no benchmark sets (entries is empty)`);
  if (!options.suiteFromName && options.suite === undefined && names.length > 1) {
    throw new UserError(
      `${options.file} has ${names.length} benchmark sets (${names.map((n) => JSON.stringify(n)).join(', ')}): import each as a suite of its own with --suite-from-name, or all into one with --suite NAME`,
    );
  }
  const bySuite = new Map<string, StoredEntry[]>();
  for (const name of names) {
    const suite = options.suiteFromName ? name : (options.suite ?? name);
    const prefix = !options.suiteFromName && names.length > 1 ? `${name} / ` : '';
    const list = bySuite.get(suite) ?? [];
    for (const e of data.entries[name]!) {
      const entry = entryFromGab(name, e, suite, data.repoUrl, prefix);
      list.push({ path: entryPath(entry.suite, entry.runId, entry.run.startedAt), entry });
    }
    bySuite.set(suite, list);
  }
  const done = await editHistory(options, async (git, tip, folder) => {
    const { changes, added, skipped } = await addEntriesChanges(
      git,
      tip,
      folder,
      bySuite,
      options.derivers,
    );
    if (added === 0) return { commit: null, result: { added, skipped } };
    for (const [name, content] of options.dashboard ?? [])
      changes.set(inFolder(folder, name), content);
    const commit = await git.commit(
      tip,
      changes,
      `duetkit: import ${added} runs from github-action-benchmark (${options.file})`,
    );
    return { commit, result: { added, skipped } };
  });
  return {
    ...done.result,
    suites: [...bySuite.keys()],
    commit: done.result.added === 0 ? null : done.commit,
  };
}

export interface ExportGabOptions extends HistoryLocation {
  /** Only this suite. Default: every suite, one data.js benchmark set each. */
  suite?: string;
}

/**
 * The history as a github-action-benchmark data.js: one benchmark set per suite (named after
 * it), runs oldest first. Imported runs come back as they were imported.
 */
export async function exportGab(
  options: ExportGabOptions,
): Promise<{ text: string; runs: number; skipped: string[]; warnings: string[] }> {
  const read = await readHistory(options);
  const entries: Record<string, GabEntry[]> = {};
  const skipped: string[] = [];
  let repoUrl: string | undefined;
  let lastUpdate = 0;
  for (const entry of read.entries) {
    const { gab, skipped: left } = gabEntryOf(entry);
    skipped.push(...left);
    (entries[entry.suite] ??= []).push(gab);
    repoUrl ??= entry.imported?.repoUrl;
    lastUpdate = Math.max(lastUpdate, gab.date);
  }
  const env = options.env ?? process.env;
  if (repoUrl === undefined && env.GITHUB_REPOSITORY) {
    repoUrl = `${env.GITHUB_SERVER_URL || 'https://github.com'}/${env.GITHUB_REPOSITORY}`;
  }
  return {
    text: renderGabData({ lastUpdate, repoUrl: repoUrl ?? '', entries }),
    runs: read.entries.length,
    skipped,
    warnings: read.warnings,
  };
}
