/// <reference lib="dom" />
import type {
  MonthRuns,
  MonthSeries,
  RunSummary,
  SuiteIndex,
  SuitesFile,
} from '../history/derive.js';

export type {
  IndexBenchmark,
  MonthRuns,
  MonthSeries,
  RunSummary,
  SuiteIndex,
  SuitesFile,
} from '../history/derive.js';

/**
 * The history's derived files, fetched relative to the page and cached for the session. A
 * suite's files are only fetched when it is opened, a benchmark's months only when its chart
 * is: the first screen needs suites.json and one index.json, whatever the history's size.
 */
const cache = new Map<string, Promise<unknown>>();

export class DataError extends Error {}

export function getJson<T>(url: string): Promise<T> {
  let promise = cache.get(url) as Promise<T> | undefined;
  if (promise === undefined) {
    promise = fetch(url, { cache: 'no-cache' }).then(async (response) => {
      if (!response.ok) throw new DataError(`${url}: HTTP ${response.status}`);
      return (await response.json()) as T;
    });
    promise.catch(() => cache.delete(url));
    cache.set(url, promise);
  }
  return promise;
}

export function loadSuites(): Promise<SuitesFile> {
  return getJson<SuitesFile>('suites.json');
}

export async function findSuite(name: string): Promise<SuitesFile['suites'][number] | null> {
  return (await loadSuites()).suites.find((s) => s.name === name) ?? null;
}

export function loadIndex(key: string): Promise<SuiteIndex> {
  return getJson<SuiteIndex>(`data/${key}/index.json`);
}

/** One benchmark's whole history, oldest first, with each point's run. */
export interface BenchmarkHistory {
  name: string;
  unit: string;
  biggerIsBetter: boolean;
  runs: RunSummary[];
  t: number[];
  v: (number | null)[];
  lo: (number | null)[];
  hi: (number | null)[];
  n: number[];
  c: (number | null)[];
  cl: (number | null)[];
  ch: (number | null)[];
  p: (number | null)[];
  k: (number | null)[];
  e: (string | null)[];
}

/** Every month of the suite (in parallel), then the benchmark's file of each month that has one. */
export async function loadBenchmark(
  index: SuiteIndex,
  key: string,
): Promise<BenchmarkHistory | null> {
  const base = `data/${index.key}`;
  const months = await Promise.all(
    index.months.map((m) => getJson<MonthRuns>(`${base}/${m.month}/runs.json`)),
  );
  const series = await Promise.all(
    months.map((m) =>
      m.benchmarks.includes(key)
        ? getJson<MonthSeries>(`${base}/${m.month}/${key}.json`)
        : Promise.resolve(null),
    ),
  );
  let out: BenchmarkHistory | null = null;
  months.forEach((month, i) => {
    const s = series[i];
    if (s === null || s === undefined) return;
    out ??= {
      name: s.name,
      unit: s.unit,
      biggerIsBetter: s.biggerIsBetter,
      runs: [],
      t: [],
      v: [],
      lo: [],
      hi: [],
      n: [],
      c: [],
      cl: [],
      ch: [],
      p: [],
      k: [],
      e: [],
    };
    const o: BenchmarkHistory = out;
    s.r.forEach((r, j) => {
      const run = month.runs[r]!;
      o.runs.push(run);
      o.t.push(run.t);
      o.v.push(s.v[j] ?? null);
      o.lo.push(s.lo[j] ?? null);
      o.hi.push(s.hi[j] ?? null);
      o.n.push(s.n[j] ?? 0);
      o.c.push(s.c[j] ?? null);
      o.cl.push(s.cl[j] ?? null);
      o.ch.push(s.ch[j] ?? null);
      o.p.push(s.p[j] ?? null);
      o.k.push(s.k[j] ?? null);
      o.e.push(s.e?.[j] ?? null);
    });
  });
  return out;
}
