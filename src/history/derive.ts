import path from 'node:path';
import { median } from '../stats/descriptive.js';
import { benchmarkKey, DATA_DIR, suiteKey } from './layout.js';
import type { StoredEntry } from './read.js';
import type { EntryVerdict } from './schema.js';

/**
 * The derived files of the history: pure functions of entries, rebuilt on every publish and
 * never edited in place, so they are always what the entries say. Their shapes are what the
 * dashboard reads (src/dashboard/data.ts); all carry `schemaVersion`.
 */
export const DERIVED_SCHEMA_VERSION = 1;

/** How many of a suite's newest runs the list view summarises (sparklines, recent changes). */
export const RECENT_RUNS = 30;
/** Runs over which "most changed recently" is judged. */
export const CHANGE_WINDOW = 10;

/** Verdicts as stored in the columnar files: 0 unchanged, 1 regression, 2 improvement, 3 inconclusive. */
export const VERDICT_CODES: Record<EntryVerdict, number> = {
  unchanged: 0,
  regression: 1,
  improvement: 2,
  inconclusive: 3,
};

/** A run as the dashboard shows it (hover, links). */
export interface RunSummary {
  id: string;
  /** Start, ms since the epoch. */
  t: number;
  commit: {
    id: string;
    message: string;
    author: string | null;
    time: number | null;
    url: string | null;
  } | null;
  url: string | null;
  event: string | null;
  /** Base commit of the comparisons, when the run compared. */
  base: string | null;
  complete: boolean;
  /** The entry file, relative to the history folder. */
  entry: string;
}

/** `data/<suite>/<month>/runs.json`. */
export interface MonthRuns {
  schemaVersion: typeof DERIVED_SCHEMA_VERSION;
  suite: string;
  month: string;
  runs: RunSummary[];
  /** Keys of the benchmarks that have a file this month. */
  benchmarks: string[];
}

/**
 * `data/<suite>/<month>/<benchmark key>.json`: one benchmark's month, columnar. `r` indexes
 * the month's `runs`; every other array is parallel to it. Values have 6 significant digits.
 */
export interface MonthSeries {
  schemaVersion: typeof DERIVED_SCHEMA_VERSION;
  name: string;
  unit: string;
  biggerIsBetter: boolean;
  r: number[];
  /** The head's statistic and its interval (null: failed, or no interval). */
  v: (number | null)[];
  lo: (number | null)[];
  hi: (number | null)[];
  n: number[];
  /** Change against the base, its interval, adjusted p and verdict code (null: no comparison). */
  c: (number | null)[];
  cl: (number | null)[];
  ch: (number | null)[];
  p: (number | null)[];
  k: (number | null)[];
  /** Errors, only when some run had one. */
  e?: (string | null)[];
}

/** A comparison as the list view shows it: change, interval, verdict code, adjusted p. */
export interface IndexComparison {
  t: number;
  run: string;
  c: number;
  cl: number;
  ch: number;
  k: number;
  p: number | null;
}

/** One benchmark in the suite's list view. */
export interface IndexBenchmark {
  name: string;
  key: string;
  unit: string;
  biggerIsBetter: boolean;
  /** The newest run that measured it. */
  latest: {
    t: number;
    v: number | null;
    lo: number | null;
    hi: number | null;
    error: string | null;
  };
  /** Its newest comparison. */
  last: IndexComparison | null;
  /**
   * Its newest regression or improvement among the last CHANGE_WINDOW runs, with how many
   * runs ago (0: the newest run); null when there is none.
   */
  called: (IndexComparison & { ago: number }) | null;
  /** Values of the newest runs (≤ RECENT_RUNS), oldest first; null where it failed. */
  spark: (number | null)[];
  /**
   * How much it changed recently: `called` when a comparison of the last CHANGE_WINDOW runs
   * was a regression or improvement (then `magnitude` is the largest such |change|), else
   * `magnitude` is |latest / median of the runs before − 1|. The list sorts by both. `k` is
   * the verdict code of that largest call.
   */
  moved: { called: boolean; magnitude: number; k?: number };
}

/** `data/<suite>/index.json`: what the suite's list view needs, in one file. */
export interface SuiteIndex {
  schemaVersion: typeof DERIVED_SCHEMA_VERSION;
  suite: string;
  key: string;
  runs: number;
  first: number | null;
  last: number | null;
  months: { month: string; runs: number }[];
  latestRun: RunSummary | null;
  benchmarks: IndexBenchmark[];
  /** Comparisons of the newest runs that were not `unchanged`, newest first (≤ 200). */
  recent: {
    t: number;
    run: string;
    benchmark: string;
    key: string;
    c: number;
    cl: number;
    ch: number;
    k: number;
    p: number | null;
    commit: string | null;
  }[];
}

/** `suites.json`: every suite of the history. */
export interface SuitesFile {
  schemaVersion: typeof DERIVED_SCHEMA_VERSION;
  suites: {
    name: string;
    key: string;
    runs: number;
    benchmarks: number;
    first: number;
    last: number;
  }[];
}

const round = (x: number): number => Number(x.toPrecision(6));
const roundOrNull = (x: number | null | undefined): number | null =>
  x === null || x === undefined ? null : round(x);

export function monthDir(suite: string, month: string): string {
  return path.posix.join(DATA_DIR, suiteKey(suite), month);
}

export function indexPath(suite: string): string {
  return path.posix.join(DATA_DIR, suiteKey(suite), 'index.json');
}

export function latestPath(suite: string): string {
  return path.posix.join(DATA_DIR, suiteKey(suite), 'latest.json');
}

export function runSummary(stored: StoredEntry): RunSummary {
  const e = stored.entry;
  const c = e.commit;
  return {
    id: e.runId,
    t: Date.parse(e.run.startedAt),
    commit:
      c === null
        ? null
        : {
            id: c.id,
            message: c.message,
            author: c.author?.name ?? null,
            time: c.timestamp === null ? null : Date.parse(c.timestamp),
            url: c.url,
          },
    url: e.run.url,
    event: e.run.event,
    base: e.benchmarks.find((b) => b.comparison !== null)?.comparison?.baseCommit ?? null,
    complete: e.run.complete,
    entry: stored.path,
  };
}

/** The derived files of one month of a suite (path relative to the folder → JSON text). */
export function monthFiles(
  suite: string,
  month: string,
  stored: readonly StoredEntry[],
): Map<string, string> {
  const dir = monthDir(suite, month);
  const runs = stored.map(runSummary);
  const series = new Map<string, MonthSeries>();
  stored.forEach(({ entry }, r) => {
    for (const b of entry.benchmarks) {
      const key = benchmarkKey(b.name);
      let s = series.get(key);
      if (s === undefined) {
        s = {
          schemaVersion: DERIVED_SCHEMA_VERSION,
          name: b.name,
          unit: b.unit,
          biggerIsBetter: b.biggerIsBetter,
          r: [],
          v: [],
          lo: [],
          hi: [],
          n: [],
          c: [],
          cl: [],
          ch: [],
          p: [],
          k: [],
        };
        series.set(key, s);
      }
      const cmp = b.comparison;
      s.r.push(r);
      s.v.push(roundOrNull(b.value));
      s.lo.push(roundOrNull(b.ci?.lower));
      s.hi.push(roundOrNull(b.ci?.upper));
      s.n.push(b.n);
      s.c.push(roundOrNull(cmp?.change));
      s.cl.push(roundOrNull(cmp?.ci.lower));
      s.ch.push(roundOrNull(cmp?.ci.upper));
      s.p.push(cmp?.pValueAdjusted == null ? null : Number(cmp.pValueAdjusted.toPrecision(3)));
      s.k.push(cmp === null ? null : VERDICT_CODES[cmp.verdict]);
      if (b.error !== null) {
        s.e ??= s.r.map(() => null);
        s.e[s.r.length - 1] = b.error.slice(0, 300);
      } else s.e?.push(null);
    }
  });
  const files = new Map<string, string>();
  const keys = [...series.keys()].sort();
  const monthRuns: MonthRuns = {
    schemaVersion: DERIVED_SCHEMA_VERSION,
    suite,
    month,
    runs,
    benchmarks: keys,
  };
  files.set(`${dir}/runs.json`, JSON.stringify(monthRuns));
  for (const key of keys) files.set(`${dir}/${key}.json`, JSON.stringify(series.get(key)));
  return files;
}

/**
 * The suite's index from its newest entries (oldest first, at most RECENT_RUNS) and the
 * count of runs per month (from the entry files' names, which cost nothing to list).
 */
export function suiteIndex(
  suite: string,
  newest: readonly StoredEntry[],
  months: ReadonlyMap<string, number>,
  firstTime: number | null,
): SuiteIndex {
  const benchmarks = new Map<string, IndexBenchmark & { values: (number | null)[] }>();
  const recent: SuiteIndex['recent'] = [];
  const windowStart = Math.max(0, newest.length - CHANGE_WINDOW);
  newest.forEach(({ entry }, i) => {
    const t = Date.parse(entry.run.startedAt);
    for (const b of entry.benchmarks) {
      let item = benchmarks.get(b.name);
      if (item === undefined) {
        item = {
          name: b.name,
          key: benchmarkKey(b.name),
          unit: b.unit,
          biggerIsBetter: b.biggerIsBetter,
          latest: { t, v: null, lo: null, hi: null, error: null },
          last: null,
          called: null,
          spark: [],
          moved: { called: false, magnitude: 0 },
          values: newest.slice(0, i).map(() => null),
        };
        benchmarks.set(b.name, item);
      }
      item.unit = b.unit;
      item.biggerIsBetter = b.biggerIsBetter;
      item.latest = {
        t,
        v: roundOrNull(b.value),
        lo: roundOrNull(b.ci?.lower),
        hi: roundOrNull(b.ci?.upper),
        error: b.error,
      };
      item.values[i] = b.value;
      const cmp = b.comparison;
      if (cmp !== null) {
        const k = VERDICT_CODES[cmp.verdict];
        item.last = {
          t,
          run: entry.runId,
          c: round(cmp.change),
          cl: round(cmp.ci.lower),
          ch: round(cmp.ci.upper),
          k,
          p: cmp.pValueAdjusted,
        };
        if (cmp.verdict !== 'unchanged') {
          recent.push({
            t,
            run: entry.runId,
            benchmark: b.name,
            key: item.key,
            c: round(cmp.change),
            cl: round(cmp.ci.lower),
            ch: round(cmp.ci.upper),
            k,
            p: cmp.pValueAdjusted,
            commit: entry.commit?.id ?? null,
          });
        }
        if (i >= windowStart && (k === 1 || k === 2)) {
          item.called = { ...item.last, ago: newest.length - 1 - i };
          const magnitude = Math.abs(cmp.change);
          if (!item.moved.called || magnitude > item.moved.magnitude) {
            item.moved = { called: true, magnitude: round(magnitude), k };
          }
        }
      }
    }
    for (const item of benchmarks.values()) if (item.values.length <= i) item.values.push(null);
  });
  const list: IndexBenchmark[] = [...benchmarks.values()].map(({ values, ...item }) => {
    if (!item.moved.called) item.moved = { called: false, magnitude: drift(values) };
    // A sparkline needs no more than 4 significant digits.
    return { ...item, spark: values.map((v) => (v === null ? null : Number(v.toPrecision(4)))) };
  });
  list.sort(
    (a, b) =>
      Number(b.moved.called) - Number(a.moved.called) ||
      b.moved.magnitude - a.moved.magnitude ||
      (a.name < b.name ? -1 : 1),
  );
  const counts = [...months.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  const latest = newest.at(-1);
  return {
    schemaVersion: DERIVED_SCHEMA_VERSION,
    suite,
    key: suiteKey(suite),
    runs: counts.reduce((sum, [, n]) => sum + n, 0),
    first: firstTime,
    last: latest === undefined ? null : Date.parse(latest.entry.run.startedAt),
    months: counts.map(([month, runs]) => ({ month, runs })),
    latestRun: latest === undefined ? null : runSummary(latest),
    benchmarks: list,
    recent: recent.reverse().slice(0, 200),
  };
}

/** |latest / median of the values before it in the window − 1|; 0 without enough values. */
function drift(values: readonly (number | null)[]): number {
  const known = values.slice(-CHANGE_WINDOW - 1).filter((v): v is number => v !== null);
  if (known.length < 2) return 0;
  const latest = known.at(-1)!;
  const before = median(known.slice(0, -1));
  return before === 0 ? 0 : round(Math.abs(latest / before - 1));
}

export function suitesFile(suites: SuitesFile['suites']): string {
  const sorted = [...suites].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return JSON.stringify({
    schemaVersion: DERIVED_SCHEMA_VERSION,
    suites: sorted,
  } satisfies SuitesFile);
}

/** Milliseconds of an entry file's compact time (`20260315T120000Z`). */
export function timeOfName(compact: string): number {
  return Date.parse(
    `${compact.slice(0, 4)}-${compact.slice(4, 6)}-${compact.slice(6, 8)}T${compact.slice(9, 11)}:${compact.slice(11, 13)}:${compact.slice(13, 15)}Z`,
  );
}

/** Entries grouped by the month of their file. */
export function byMonth(stored: readonly StoredEntry[]): Map<string, StoredEntry[]> {
  const months = new Map<string, StoredEntry[]>();
  for (const s of stored) {
    const month = s.path.split('/')[2]!;
    months.set(month, [...(months.get(month) ?? []), s]);
  }
  return months;
}
