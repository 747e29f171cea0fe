import type { EntryBenchmark, HistoryEntry, ValueInterval } from '../history/schema.js';
import { readAa, type AaBenchmark } from './aa.js';
import { pairedStepOf, type PairedStep } from './paired.js';

/** What a run was measured on, for grouping (Henning et al.'s machine type, region, reuse). */
export interface InfraIdentity {
  /** Runner image and version, e.g. `ubuntu24 20250105.1`; null when unknown. */
  image: string | null;
  cpuModel: string | null;
  /** Kubernetes cluster (provider/name) when the run used one. */
  cluster: string | null;
  /** The machine itself (cluster instance id, else host name): same value = reused machine. */
  instance: string | null;
}

/** One run's value of one benchmark. */
export interface SeriesPoint {
  runId: string;
  /** The run's start, ms since the epoch (UTC). */
  at: number;
  commit: { id: string; message: string; url: string | null } | null;
  runUrl: string | null;
  value: number;
  n: number;
  cv: number | null;
  ci: ValueInterval | null;
  infra: InfraIdentity;
  /** Tonight's A/A duet of this benchmark, when the run had one. */
  aa: AaBenchmark | null;
  /** The run's paired comparison of its head against another commit, when it made one. */
  paired: PairedStep | null;
}

/** Something left out of the analysis, and why: never silent. */
export interface Skipped {
  suite: string | null;
  benchmark: string | null;
  runId: string | null;
  reason: string;
}

/** The values of one benchmark of one suite over the history, oldest first, in one unit. */
export interface BenchmarkSeries {
  suite: string;
  benchmark: string;
  unit: string;
  statistic: string;
  biggerIsBetter: boolean;
  points: SeriesPoint[];
  /** Facts about the series a reader must know (gaps, a likely rename). */
  notes: string[];
}

export interface SeriesOptions {
  /** Only runs that started at or after this time (ms since the epoch). */
  since?: number;
  suite?: string;
}

/**
 * Splits a suite's entries into one series per benchmark. Left out, each with its reason: runs
 * before `since`, interrupted runs (`complete: false`), benchmarks that failed or have no
 * value, values recorded in another unit or statistic than the benchmark's latest (a series
 * never mixes units: the earlier ones are skipped), and A/A blocks that do not validate. Gaps
 * in time and a benchmark that ends when another begins (a rename?) become notes. Pure.
 */
export function buildSeries(
  entries: readonly HistoryEntry[],
  options: SeriesOptions = {},
): { series: BenchmarkSeries[]; skipped: Skipped[] } {
  const skipped: Skipped[] = [];
  const bySuite = new Map<string, HistoryEntry[]>();
  for (const e of entries) {
    if (options.suite !== undefined && e.suite !== options.suite) continue;
    const at = Date.parse(e.run.startedAt);
    if (options.since !== undefined && at < options.since) continue;
    if (!e.run.complete) {
      skipped.push(skip(e, null, 'the run was interrupted (complete: false)'));
      continue;
    }
    bySuite.set(e.suite, [...(bySuite.get(e.suite) ?? []), e]);
  }
  const series: BenchmarkSeries[] = [];
  for (const [suite, list] of bySuite) {
    const raw = new Map<
      string,
      { entry: HistoryEntry; b: EntryBenchmark; aa: AaBenchmark | null }[]
    >();
    for (const entry of list) {
      const aa = readAa(entry);
      if (aa.problem !== null) skipped.push(skip(entry, null, `A/A block ignored: ${aa.problem}`));
      for (const b of entry.benchmarks) {
        if (b.error !== null || b.value === null) {
          skipped.push(
            skip(entry, b.name, b.error !== null ? `failed: ${firstLine(b.error)}` : 'no value'),
          );
          continue;
        }
        const aaOf = aa.block?.benchmarks.find((x) => x.name === b.name) ?? null;
        raw.set(b.name, [...(raw.get(b.name) ?? []), { entry, b, aa: aaOf }]);
      }
    }
    for (const [name, rows] of raw) {
      const last = rows.at(-1)!.b;
      const same = (b: EntryBenchmark) => b.unit === last.unit && b.statistic === last.statistic;
      for (const r of rows) {
        if (same(r.b)) continue;
        skipped.push(
          skip(
            r.entry,
            name,
            `recorded in ${r.b.unit || '(no unit)'} (${r.b.statistic}); the latest runs are in ${last.unit || '(no unit)'} (${last.statistic}): units are never mixed`,
          ),
        );
      }
      const points = rows.filter((r) => same(r.b)).map((r) => pointOf(r.entry, r.b, r.aa));
      series.push({
        suite,
        benchmark: name,
        unit: last.unit,
        statistic: last.statistic,
        biggerIsBetter: last.biggerIsBetter,
        points,
        notes: [...gapNotes(points), ...cpuModelNotes(points)],
      });
    }
    addRenameNotes(
      series.filter((s) => s.suite === suite),
      list,
    );
  }
  series.sort((a, b) =>
    a.suite === b.suite ? a.benchmark.localeCompare(b.benchmark) : a.suite.localeCompare(b.suite),
  );
  return { series, skipped };
}

function pointOf(entry: HistoryEntry, b: EntryBenchmark, aa: AaBenchmark | null): SeriesPoint {
  const infra = entry.infrastructure;
  const machine = (infra.machine ?? {}) as { hostname?: unknown };
  const cluster = infra.cluster;
  return {
    runId: entry.runId,
    at: Date.parse(entry.run.startedAt),
    commit:
      entry.commit === null
        ? null
        : { id: entry.commit.id, message: entry.commit.message, url: entry.commit.url },
    runUrl: entry.run.url,
    value: b.value!,
    n: b.n,
    cv: b.cv,
    ci: b.ci,
    infra: {
      image:
        infra.runnerImage === null
          ? null
          : [infra.runnerImage, infra.runnerImageVersion].filter(Boolean).join(' '),
      cpuModel: infra.cpuModel,
      cluster:
        cluster === undefined
          ? null
          : [cluster.provider, cluster.name].filter(Boolean).join('/') || null,
      instance:
        cluster?.instanceId ?? (typeof machine.hostname === 'string' ? machine.hostname : null),
    },
    aa,
    paired: pairedStepOf(entry, b),
  };
}

const DAY = 86_400_000;

/** Notes for spells without runs longer than 3× the usual spacing (and at least 2 days). */
function gapNotes(points: readonly SeriesPoint[]): string[] {
  if (points.length < 3) return [];
  const steps = points
    .slice(1)
    .map((p, i) => p.at - points[i]!.at)
    .sort((a, b) => a - b);
  const usual = steps[Math.floor(steps.length / 2)]!;
  const notes: string[] = [];
  for (let i = 1; i < points.length; i++) {
    const gap = points[i]!.at - points[i - 1]!.at;
    if (gap > Math.max(3 * usual, 2 * DAY)) {
      notes.push(
        `no runs from ${day(points[i - 1]!.at)} to ${day(points[i]!.at)} (${(gap / DAY).toFixed(1)} days): the analysis goes on across the gap`,
      );
    }
  }
  return notes;
}

/**
 * A series measured on more than one CPU model (GitHub's runners mix them) may step where the
 * model changes without any commit's doing: one note with the models, their runs and the last
 * change.
 */
function cpuModelNotes(points: readonly SeriesPoint[]): string[] {
  const counts = new Map<string, number>();
  for (const p of points) {
    if (p.infra.cpuModel !== null) {
      counts.set(p.infra.cpuModel, (counts.get(p.infra.cpuModel) ?? 0) + 1);
    }
  }
  if (counts.size < 2) return [];
  let last: string | null = null;
  for (let i = 1; i < points.length; i++) {
    const before = points[i - 1]!.infra.cpuModel;
    const after = points[i]!.infra.cpuModel;
    if (before !== null && after !== null && before !== after) {
      last = `on ${day(points[i]!.at)} from ${before} to ${after}`;
    }
  }
  const models = [...counts].map(([model, n]) => `${model}: ${n} run${n === 1 ? '' : 's'}`);
  return [
    `measured on ${counts.size} CPU models (${models.join('; ')})${last === null ? '' : `, last changed ${last}`}: values may step where the model changes`,
  ];
}

/**
 * A benchmark whose last run is the run just before another's first, in the same unit, was
 * perhaps renamed: the two are analysed apart, and both say so.
 */
function addRenameNotes(
  series: readonly BenchmarkSeries[],
  entries: readonly HistoryEntry[],
): void {
  const order = new Map(entries.map((e, i) => [e.runId, i]));
  for (const old of series) {
    const end = order.get(old.points.at(-1)?.runId ?? '');
    if (end === undefined || end === entries.length - 1) continue;
    for (const next of series) {
      if (next === old || next.unit !== old.unit) continue;
      const start = order.get(next.points[0]?.runId ?? '');
      if (start !== end + 1) continue;
      const text = `"${old.benchmark}" last ran in run ${entries[end]!.runId} and "${next.benchmark}" first ran in the next run (${entries[start]!.runId}): if it was renamed, the two histories are analysed apart`;
      old.notes.push(text);
      next.notes.push(text);
    }
  }
}

function skip(entry: HistoryEntry, benchmark: string | null, reason: string): Skipped {
  return { suite: entry.suite, benchmark, runId: entry.runId, reason };
}

function firstLine(text: string): string {
  const line = text.split('\n')[0]!;
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
