import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { buildDashboard } from '../../scripts/build-dashboard.mjs';
import { readDashboard } from '../../src/dashboard/assets.js';
import { normalizeFolder, openLocation, type StoredEntry } from '../../src/history/read.js';
import { addEntriesChanges, type Deriver } from '../../src/history/store.js';

/** A freshly built dashboard (from src/, not the committed dist/) in `dir`, as its files. */
export async function freshDashboard(dir: string): Promise<Map<string, Buffer>> {
  await buildDashboard(dir);
  return readDashboard(dir);
}

/**
 * Writes `entries` to the history branch of `remote` in one commit, derived files (and those of
 * `derivers`) and dashboard included, as an import would.
 */
export async function writeHistory(
  remote: string,
  entries: readonly StoredEntry[],
  dashboard: ReadonlyMap<string, Buffer>,
  options: { branch?: string; path?: string; derivers?: readonly Deriver[] } = {},
): Promise<string> {
  const folder = normalizeFolder(options.path);
  const git = await openLocation({
    remote,
    ...(options.branch === undefined ? {} : { branch: options.branch }),
  });
  try {
    const tip = await git.fetchTip();
    const bySuite = new Map<string, StoredEntry[]>();
    for (const s of entries) bySuite.set(s.entry.suite, [...(bySuite.get(s.entry.suite) ?? []), s]);
    const { changes } = await addEntriesChanges(git, tip, folder, bySuite, options.derivers);
    for (const [name, content] of dashboard)
      changes.set(folder === '' ? name : `${folder}/${name}`, content);
    const commit = await git.commit(tip, changes, `test history: ${entries.length} runs`);
    const pushed = await git.push(commit);
    if (!pushed.ok) throw new Error(pushed.message);
    return commit;
  } finally {
    await git.dispose();
  }
}

/** A checkout of `branch` of `remote` in `dir` (a real clone, as a user would look at it). */
export function checkout(remote: string, branch: string, dir: string): string {
  mkdirSync(path.dirname(dir), { recursive: true });
  execFileSync('git', [
    'clone',
    '-q',
    '--depth',
    '1',
    '--branch',
    branch,
    `file://${path.resolve(remote)}`,
    dir,
  ]);
  return dir;
}
