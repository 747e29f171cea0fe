import { entryPath } from '../../src/history/layout.js';
import type { HistoryEntry } from '../../src/history/schema.js';
import { pushFiles } from '../history/helpers.js';

/** Entry files as the store lays them out on the branch, under `duetkit/`. */
export function entryFiles(entries: readonly HistoryEntry[]): Record<string, string> {
  return Object.fromEntries(
    entries.map((e) => [
      `duetkit/${entryPath(e.suite, e.runId, e.run.startedAt)}`,
      `${JSON.stringify(e)}\n`,
    ]),
  );
}

/** Pushes entries (and any other files) to the gh-pages branch of `remote` with plain git. */
export function pushHistory(
  remote: string,
  entries: readonly HistoryEntry[],
  more: Record<string, string> = {},
): void {
  pushFiles(remote, 'gh-pages', { ...entryFiles(entries), ...more });
}
