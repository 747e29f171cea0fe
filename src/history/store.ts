import path from 'node:path';
import {
  byMonth,
  indexPath,
  latestPath,
  monthDir,
  monthFiles,
  RECENT_RUNS,
  suiteIndex,
  suitesFile,
  timeOfName,
  type SuitesFile,
} from './derive.js';
import type { BranchGit } from './git-branch.js';
import { ENTRIES_DIR, runKey, SUITES_FILE, suiteKey } from './layout.js';
import { inFolder, listEntryFiles, loadEntries, type EntryFile, type StoredEntry } from './read.js';
import { parseEntry } from './schema.js';

/** Files to write (content) or delete (null), by path from the root of the branch. */
export type Changes = Map<string, string | Buffer | null>;

/** What changes in one suite: entries added (in memory) and entry files removed. */
export interface SuiteEdit {
  suite: string;
  added: StoredEntry[];
  /** Entry files (relative to the folder) to delete. */
  removed: ReadonlySet<string>;
}

/**
 * The changes that apply `edit` to the branch at `tip` (null: a new branch): the added entry
 * files, the removed ones, and every derived file that depends on them rebuilt from the
 * entries — the months touched, the suite's index and latest values, and suites.json. Reads
 * only the entries of the months touched and the newest runs, so its cost does not grow with
 * the number of past runs. Corrupt entries are left out of the derived files, with a warning.
 * `derivers` add further derived files of the suite.
 */
export async function suiteChanges(
  git: BranchGit,
  tip: string | null,
  folder: string,
  edit: SuiteEdit,
  derivers: readonly Deriver[] = [],
): Promise<{ changes: Changes; warnings: string[] }> {
  const at = (relative: string): string => inFolder(folder, relative);
  const changes: Changes = new Map();
  const warnings: string[] = [];
  const existing = tip === null ? [] : await listEntryFiles(git, tip, folder, edit.suite);
  const kept = existing.filter((f) => !edit.removed.has(f.relative));
  for (const relative of edit.removed) changes.set(at(relative), null);
  for (const s of edit.added) changes.set(at(s.path), `${JSON.stringify(s.entry)}\n`);

  // Every entry of the suite by name (time order), the added ones among them.
  const names = [...kept.map((f) => f.relative), ...edit.added.map((s) => s.path)].sort();
  const monthOfPath = (relative: string): string => relative.split('/')[2]!;
  const counts = new Map<string, number>();
  for (const name of names) counts.set(monthOfPath(name), (counts.get(monthOfPath(name)) ?? 0) + 1);

  const touched = new Set([...edit.added.map((s) => s.path), ...edit.removed].map(monthOfPath));
  const newestNames = new Set(names.slice(-RECENT_RUNS));
  const wanted = kept.filter((f) => touched.has(f.location.month) || newestNames.has(f.relative));
  const loaded = await loadEntries(git, wanted);
  warnings.push(...loaded.warnings);
  const all = [...loaded.stored, ...edit.added];
  all.sort(
    (a, b) =>
      Date.parse(a.entry.run.startedAt) - Date.parse(b.entry.run.startedAt) ||
      (a.entry.runId < b.entry.runId ? -1 : 1),
  );

  const months = byMonth(all.filter((s) => touched.has(monthOfPath(s.path))));
  for (const month of touched) {
    const dir = at(monthDir(edit.suite, month));
    const fresh = monthFiles(edit.suite, month, months.get(month) ?? []);
    if (!months.has(month)) fresh.clear();
    const old = tip === null ? [] : await git.listFiles(tip, dir);
    for (const file of old) changes.set(file.path, null);
    for (const [relative, text] of fresh) changes.set(at(relative), text);
  }
  const newest = all.filter((s) => newestNames.has(s.path));
  const first = names.length === 0 ? null : timeOfName(names[0]!.split('/')[3]!.slice(0, 16));
  if (names.length === 0) {
    changes.set(at(indexPath(edit.suite)), null);
    changes.set(at(latestPath(edit.suite)), null);
  } else {
    changes.set(
      at(indexPath(edit.suite)),
      JSON.stringify(suiteIndex(edit.suite, newest, counts, first)),
    );
    const latest = newest.at(-1);
    if (latest !== undefined)
      changes.set(at(latestPath(edit.suite)), `${JSON.stringify(latest.entry)}\n`);
  }
  for (const derive of derivers) {
    const extra = await derive({
      suite: edit.suite,
      git,
      files: kept,
      added: edit.added,
      load: async (files) => {
        const read = await loadEntries(git, files);
        warnings.push(...read.warnings);
        return read.stored;
      },
    });
    for (const [relative, content] of extra) changes.set(at(relative), content);
  }
  return { changes, warnings };
}

/**
 * What a commit of one suite's edit writes: the suite's changes (`suiteChanges`) and
 * suites.json rebuilt after them (`suitesChanges`).
 */
export async function editChanges(
  git: BranchGit,
  tip: string | null,
  folder: string,
  edit: SuiteEdit,
  derivers: readonly Deriver[] = [],
): Promise<{ changes: Changes; warnings: string[] }> {
  const suite = await suiteChanges(git, tip, folder, edit, derivers);
  const suites = await suitesChanges(git, tip, folder, suite.changes);
  return {
    changes: new Map([...suite.changes, ...suites.changes]),
    warnings: [...suite.warnings, ...suites.warnings],
  };
}

/** What a further derived file is computed from: the suite's entries after the edit. */
export interface DeriveInput {
  suite: string;
  git: BranchGit;
  /** The suite's entry files already on the branch that stay (name order = time order). */
  files: readonly EntryFile[];
  /** The entries this edit adds (in memory, not on the branch yet). */
  added: readonly StoredEntry[];
  /** Downloads and validates entry files (corrupt ones become warnings of the publish). */
  load(files: readonly EntryFile[]): Promise<StoredEntry[]>;
}

/**
 * Files (relative to the history folder; null deletes) derived for a suite on every edit, beside
 * the built-in ones (e.g. a variability view's data). The history knows none: whoever edits
 * it (a CLI command, the action) passes them in. A deriver is called once per edited suite,
 * after the built-in files; it should read a bounded number of entries (the newest nights,
 * say), so publishing stays as cheap as it is.
 */
export type Deriver = (input: DeriveInput) => Promise<Map<string, string | null>>;

/**
 * suites.json rebuilt from the entry files of every suite (their names give counts and
 * times; each suite's newest entry gives its name and benchmark count), with `pending`
 * applied on top of the branch at `tip`.
 */
export async function suitesChanges(
  git: BranchGit,
  tip: string | null,
  folder: string,
  pending: Changes,
): Promise<{ changes: Changes; warnings: string[] }> {
  const at = (relative: string): string => inFolder(folder, relative);
  const prefix = at(`${ENTRIES_DIR}/`);
  const files = new Map<string, { oid: string | null; text: string | null }>();
  if (tip !== null) {
    for (const f of await listEntryFiles(git, tip, folder))
      files.set(at(f.relative), { oid: f.oid, text: null });
  }
  for (const [file, content] of pending) {
    if (!file.startsWith(prefix)) continue;
    if (content === null) files.delete(file);
    else files.set(file, { oid: null, text: content.toString() });
  }
  const suites = new Map<string, string[]>();
  for (const file of [...files.keys()].sort()) {
    const key = file.slice(prefix.length).split('/')[0]!;
    suites.set(key, [...(suites.get(key) ?? []), file]);
  }
  // The newest readable entry of each suite names it.
  const warnings: string[] = [];
  const list: SuitesFile['suites'] = [];
  for (const [key, names] of suites) {
    for (let i = names.length - 1; i >= 0; i--) {
      const file = files.get(names[i]!)!;
      let text = file.text;
      if (text === null) text = (await git.readBlobs([file.oid!])).get(file.oid!)!.toString('utf8');
      let entry;
      try {
        entry = parseEntry(text, names[i]!);
      } catch (error) {
        warnings.push(`skipped ${(error as Error).message}`);
        continue;
      }
      if (suiteKey(entry.suite) !== key) continue;
      const time = (name: string): number => timeOfName(path.posix.basename(name).slice(0, 16));
      list.push({
        name: entry.suite,
        key,
        runs: names.length,
        benchmarks: entry.benchmarks.length,
        first: time(names[0]!),
        last: time(names.at(-1)!),
      });
      break;
    }
  }
  return { changes: new Map([[at(SUITES_FILE), suitesFile(list)]]), warnings };
}

/**
 * The changes that add many entries at once (an import, a generated history): per suite, the
 * entries whose run id it lacks, with its derived files rebuilt; then suites.json.
 */
export async function addEntriesChanges(
  git: BranchGit,
  tip: string | null,
  folder: string,
  bySuite: ReadonlyMap<string, readonly StoredEntry[]>,
  derivers: readonly Deriver[] = [],
): Promise<{ changes: Changes; added: number; skipped: number; warnings: string[] }> {
  const changes: Changes = new Map();
  const warnings: string[] = [];
  let added = 0;
  let skipped = 0;
  for (const [suite, list] of bySuite) {
    const have = new Set(
      tip === null
        ? []
        : (await listEntryFiles(git, tip, folder, suite)).map((f) => f.location.runKey),
    );
    const fresh: StoredEntry[] = [];
    for (const s of list) {
      const key = runKey(s.entry.runId);
      if (have.has(key)) skipped++;
      else {
        have.add(key);
        fresh.push(s);
      }
    }
    added += fresh.length;
    if (fresh.length === 0) continue;
    const edit = await suiteChanges(
      git,
      tip,
      folder,
      { suite, added: fresh, removed: new Set() },
      derivers,
    );
    for (const [file, content] of edit.changes) changes.set(file, content);
    warnings.push(...edit.warnings);
  }
  if (added > 0) {
    const suites = await suitesChanges(git, tip, folder, changes);
    for (const [file, content] of suites.changes) changes.set(file, content);
    warnings.push(...suites.warnings);
  }
  return { changes, added, skipped, warnings };
}
