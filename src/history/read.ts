import path from 'node:path';
import { openBranch, type BranchGit, type TreeFile } from './git-branch.js';
import { ENTRIES_DIR, parseEntryPath, runKey, suiteKey, type EntryLocation } from './layout.js';
import { compareEntries, HistoryFormatError, parseEntry, type HistoryEntry } from './schema.js';

/** Where a history lives. Defaults: branch `gh-pages`, folder `duetkit`. */
export interface HistoryLocation {
  /** A git URL or the path of a local (bare) repository. */
  remote: string;
  branch?: string;
  /** Folder of the history in the branch. */
  path?: string;
  /** For https remotes (GitHub's Actions token or a PAT). */
  token?: string;
  env?: NodeJS.ProcessEnv;
}

export const DEFAULT_BRANCH = 'gh-pages';
export const DEFAULT_PATH = 'duetkit';

export interface ReadHistoryOptions extends HistoryLocation {
  /** Only this suite's entries. Default: every suite. */
  suite?: string;
}

/** An entry and the file it was read from (relative to the history folder). */
export interface StoredEntry {
  path: string;
  entry: HistoryEntry;
}

export interface HistoryRead {
  /** Oldest first (by the run's start, then run id). */
  entries: HistoryEntry[];
  /** `entries` with their files, in the same order. */
  stored: StoredEntry[];
  /** Files that were skipped, each naming the file and why (a corrupt entry never stops a read). */
  warnings: string[];
  /** The branch's commit that was read; null when the branch does not exist (no entries). */
  tip: string | null;
}

/** The history folder as a path from the root of the branch ('' for the root). */
export function normalizeFolder(folder: string | undefined): string {
  const clean = path.posix.normalize(`/${(folder ?? DEFAULT_PATH).replace(/\\/g, '/')}/`);
  return clean === '/' ? '' : clean.slice(1, -1);
}

/** A path relative to the history folder as a path from the root of the branch. */
export function inFolder(folder: string, relative: string): string {
  return folder === '' ? relative : `${folder}/${relative}`;
}

/**
 * Reads a history branch into entries, oldest first. The branch is fetched shallow, and only
 * the entries asked for are downloaded. A file that is not a valid entry is skipped with a
 * warning naming the file and the field; a missing branch is an empty history.
 */
export async function readHistory(options: ReadHistoryOptions): Promise<HistoryRead> {
  const git = await openLocation(options);
  try {
    const tip = await git.fetchTip();
    if (tip === null) return { entries: [], stored: [], warnings: [], tip };
    const folder = normalizeFolder(options.path);
    const files = await listEntryFiles(git, tip, folder, options.suite);
    const { stored, warnings } = await loadEntries(git, files);
    return { entries: stored.map((s) => s.entry), stored, warnings, tip };
  } finally {
    await git.dispose();
  }
}

/** Opens the branch of a history location (a temporary local clone; dispose it). */
export function openLocation(options: HistoryLocation & { tmpDir?: string }): Promise<BranchGit> {
  return openBranch({
    remote: options.remote,
    branch: options.branch ?? DEFAULT_BRANCH,
    ...(options.token === undefined ? {} : { token: options.token }),
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.tmpDir === undefined ? {} : { tmpDir: options.tmpDir }),
  });
}

/** An entry file of the tree: where it is (relative to the folder) and what its name says. */
export interface EntryFile extends TreeFile {
  /** Relative to the history folder. */
  relative: string;
  location: EntryLocation;
}

/** The entry files under the folder (of one suite, when given), in name order. */
export async function listEntryFiles(
  git: BranchGit,
  commit: string,
  folder: string,
  suite?: string,
): Promise<EntryFile[]> {
  const dir = path.posix.join(folder, ENTRIES_DIR, suite === undefined ? '' : suiteKey(suite));
  const prefix = folder === '' ? '' : `${folder}/`;
  const files: EntryFile[] = [];
  for (const file of await git.listFiles(commit, dir)) {
    const relative = file.path.slice(prefix.length);
    const location = parseEntryPath(relative);
    if (location !== null) files.push({ ...file, relative, location });
  }
  return files.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
}

/**
 * Downloads and validates entry files. Invalid ones, and ones that are not where their suite
 * and run id say they belong (which would defeat the one-file-per-run rule), are warnings.
 */
export async function loadEntries(
  git: BranchGit,
  files: readonly EntryFile[],
): Promise<{ stored: StoredEntry[]; warnings: string[] }> {
  const blobs = await git.readBlobs(files.map((f) => f.oid));
  const stored: StoredEntry[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  for (const file of files) {
    try {
      const entry = parseEntry(blobs.get(file.oid)!.toString('utf8'), file.path);
      if (suiteKey(entry.suite) !== file.location.suiteKey) {
        throw new HistoryFormatError(
          file.path,
          'suite',
          `"${entry.suite}" belongs in ${suiteKey(entry.suite)}/`,
        );
      }
      if (runKey(entry.runId) !== file.location.runKey) {
        throw new HistoryFormatError(
          file.path,
          'runId',
          `"${entry.runId}" does not match the file name`,
        );
      }
      const id = `${file.location.suiteKey}\0${entry.runId}`;
      if (seen.has(id)) {
        throw new HistoryFormatError(
          file.path,
          'runId',
          `"${entry.runId}" is already in another entry of the suite`,
        );
      }
      seen.add(id);
      stored.push({ path: file.relative, entry });
    } catch (error) {
      if (!(error instanceof HistoryFormatError)) throw error;
      warnings.push(`skipped ${error.message}`);
    }
  }
  stored.sort((a, b) => compareEntries(a.entry, b.entry));
  return { stored, warnings };
}
