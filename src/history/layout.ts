import { createHash } from 'node:crypto';
import path from 'node:path';

/**
 * Where things live in the history folder of the branch (default `duetkit/`):
 *
 *   entries/<suite key>/<YYYY-MM>/<YYYYMMDDTHHMMSSZ>-<run key>.json   one immutable file per run
 *   suites.json                                                     derived: every suite
 *   data/<suite key>/index.json                                     derived: the suite's list view
 *   data/<suite key>/<YYYY-MM>/runs.json                            derived: the month's runs
 *   data/<suite key>/<YYYY-MM>/<benchmark key>.json                 derived: a benchmark's month
 *   index.html, dashboard.js, dashboard.css                         the dashboard
 *
 * Keys are file-safe slugs with a hash of the full name, so any name (slashes, spaces, case
 * that differs only in case) has a file of its own on every file system.
 */
export const ENTRIES_DIR = 'entries';
export const DATA_DIR = 'data';
export const SUITES_FILE = 'suites.json';

/** sha256 of `text`, hex, first `length` digits. */
export function shortHash(text: string, length = 8): string {
  return createHash('sha256').update(text).digest('hex').slice(0, length);
}

function slug(text: string, max: number): string {
  return text
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, max)
    .toLowerCase();
}

/** `micro-3f2a1b9c`: a slug of the suite's name and a hash of it. */
export function suiteKey(suite: string): string {
  const s = slug(suite, 40);
  return `${s === '' ? 'suite' : s}-${shortHash(suite)}`;
}

/** `b-<12 hex>`: a benchmark's file name in the derived data (its name is in index.json). */
export function benchmarkKey(name: string): string {
  return `b-${shortHash(name, 12)}`;
}

/** The run id itself when file-safe (≤ 60 of [A-Za-z0-9._-]), else a slug and a hash. */
export function runKey(runId: string): string {
  if (/^[A-Za-z0-9_][A-Za-z0-9._-]{0,59}$/.test(runId)) return runId;
  const s = slug(runId, 40);
  return `${s === '' ? 'run' : s}-${shortHash(runId)}`;
}

/** `2026-03` (UTC) of an ISO time. */
export function monthOf(iso: string): string {
  return new Date(Date.parse(iso)).toISOString().slice(0, 7);
}

/** `20260315T120000Z` (UTC, whole seconds) of an ISO time. */
export function compactTime(iso: string): string {
  return new Date(Date.parse(iso))
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}

/** Path of an entry file, relative to the history folder. */
export function entryPath(suite: string, runId: string, startedAt: string): string {
  return path.posix.join(
    ENTRIES_DIR,
    suiteKey(suite),
    monthOf(startedAt),
    `${compactTime(startedAt)}-${runKey(runId)}.json`,
  );
}

export interface EntryLocation {
  suiteKey: string;
  month: string;
  /** `20260315T120000Z`. */
  time: string;
  runKey: string;
}

const ENTRY_FILE = /^entries\/([^/]+)\/(\d{4}-\d{2})\/(\d{8}T\d{6}Z)-([^/]+)\.json$/;

/** The parts of an entry path (relative to the history folder), or null for another file. */
export function parseEntryPath(relative: string): EntryLocation | null {
  const m = ENTRY_FILE.exec(relative);
  if (m === null) return null;
  return { suiteKey: m[1]!, month: m[2]!, time: m[3]!, runKey: m[4]! };
}

export function suiteDataDir(key: string): string {
  return path.posix.join(DATA_DIR, key);
}
