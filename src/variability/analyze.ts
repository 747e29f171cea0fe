import type { HistoryEntry } from '../history/schema.js';
import { fnv1a } from '../stats/rng.js';
import { wilsonInterval, type ProportionInterval } from '../stats/proportion.js';
import { findChangePoints, uncalledNote, type ChangePoint } from './change-points.js';
import { infrastructureOf, type Infrastructure } from './infrastructure.js';
import { noiseOf, type Noise } from './noise.js';
import {
  suitePaired,
  summarisePaired,
  type PairedStep,
  type PairedSummary,
  type SuitePaired,
} from './paired.js';
import { relativeToSegments } from './normalise.js';
import { patternOf, type Pattern } from './patterns.js';
import { repetitionErrors, type RepetitionError } from './repetitions.js';
import { buildSeries, type BenchmarkSeries, type Skipped } from './series.js';

/** Version of the variability report JSON (`duetkit variability --json`). */
export const VARIABILITY_SCHEMA_VERSION = 1;

/** How the analysis runs; every field has a default (see `DEFAULT_SETTINGS`). */
export interface VariabilitySettings {
  /** Only runs that started at or after this time (ISO); null for all. */
  since: string | null;
  suite: string | null;
  /** Level of the descriptive intervals (CVs, medians, steps). */
  level: number;
  resamples: number;
  seed: number;
  /** Significance level of the change-point permutation tests, and permutations per test. */
  changePointAlpha: number;
  permutations: number;
  /** Significance level of the pattern tests (Kruskal–Wallis, Holm-adjusted Mann–Whitney). */
  patternAlpha: number;
  /** The effect size "how much data would be needed" is computed for (fraction). */
  effect: number;
  /**
   * Practical threshold (fraction) a change point's step interval must clear to be called;
   * 0: the interval must exclude no change. Absent in reports written before it existed.
   */
  threshold?: number;
}

export const DEFAULT_SETTINGS: VariabilitySettings = {
  since: null,
  suite: null,
  level: 0.95,
  resamples: 2000,
  seed: 1,
  changePointAlpha: 0.01,
  permutations: 499,
  patternAlpha: 0.05,
  effect: 0.01,
  threshold: 0,
};

export interface ValuePoint {
  runId: string;
  at: string;
  value: number;
  commit: string | null;
}

export interface BenchmarkVariability {
  suite: string;
  benchmark: string;
  unit: string;
  statistic: string;
  biggerIsBetter: boolean;
  runs: number;
  values: ValuePoint[];
  changePoints: ChangePoint[];
  /** Paired comparisons the runs made of their head against another commit (steps judged within one run). */
  paired: PairedSummary;
  noise: Noise;
  patterns: Pattern[];
  repetitions: RepetitionError[];
  infrastructure: Infrastructure;
  notes: string[];
}

export interface SuiteAa {
  /** Runs with an A/A duet, A/A comparisons in them, and those called changed. */
  runs: number;
  comparisons: number;
  calledChanged: number;
  rate: ProportionInterval;
  nominal: number;
  /** The latest run's A/A: what it called changed (empty: nothing). */
  latest: { runId: string; at: string; calledChanged: string[] } | null;
}

export interface SuiteVariability {
  suite: string;
  runs: number;
  first: string | null;
  last: string | null;
  aa: SuiteAa | null;
  /** The runs' paired comparisons against other commits (e.g. `base-from-history`). */
  paired: SuitePaired | null;
  benchmarks: BenchmarkVariability[];
}

export interface VariabilityReport {
  schemaVersion: typeof VARIABILITY_SCHEMA_VERSION;
  generatedAt: string;
  settings: VariabilitySettings;
  suites: SuiteVariability[];
  /** What was left out, and why (runs, benchmarks, files). */
  skipped: Skipped[];
  /** Files of the history that could not be read, as the reader reported them. */
  warnings: string[];
}

/**
 * The variability report of a history: per suite and benchmark the noise (CV within and
 * between runs, MDE over time, A/A false positives), patterns by hour, weekday and ISO week,
 * the error as a function of repetitions, infrastructure effects and change points on main.
 * Benchmarks with fewer than 4 usable runs get only their values and a note. Pure: `now` and
 * the seed make it reproducible.
 */
export function analyzeVariability(
  entries: readonly HistoryEntry[],
  options: { settings?: Partial<VariabilitySettings>; warnings?: readonly string[]; now: Date },
): VariabilityReport {
  const settings = { ...DEFAULT_SETTINGS, ...options.settings };
  const since = settings.since === null ? undefined : Date.parse(settings.since);
  const { series, skipped } = buildSeries(entries, {
    since,
    suite: settings.suite ?? undefined,
  });
  const suites = new Map<string, BenchmarkVariability[]>();
  const steps = new Map<string, { benchmark: string; steps: PairedStep[] }[]>();
  for (const s of series) {
    const own = s.points.flatMap((p) => (p.paired === null ? [] : [p.paired]));
    suites.set(s.suite, [...(suites.get(s.suite) ?? []), analyzeSeries(s, own, settings)]);
    steps.set(s.suite, [...(steps.get(s.suite) ?? []), { benchmark: s.benchmark, steps: own }]);
  }
  const kept = entries.filter(
    (e) =>
      (settings.suite === null || e.suite === settings.suite) &&
      (since === undefined || Date.parse(e.run.startedAt) >= since),
  );
  return {
    schemaVersion: VARIABILITY_SCHEMA_VERSION,
    generatedAt: options.now.toISOString(),
    settings,
    suites: [...suites].map(([suite, benchmarks]) => {
      const own = kept.filter((e) => e.suite === suite);
      return {
        suite,
        runs: own.length,
        first: own[0]?.run.startedAt ?? null,
        last: own.at(-1)?.run.startedAt ?? null,
        aa: suiteAa(benchmarks),
        paired: suitePaired(steps.get(suite) ?? []),
        benchmarks,
      };
    }),
    skipped,
    warnings: [...(options.warnings ?? [])],
  };
}

function analyzeSeries(
  s: BenchmarkSeries,
  paired: readonly PairedStep[],
  settings: VariabilitySettings,
): BenchmarkVariability {
  const seed = (settings.seed + fnv1a(`${s.suite}\u0000${s.benchmark}`)) >>> 0;
  const values = s.points.map((p) => ({
    runId: p.runId,
    at: new Date(p.at).toISOString(),
    value: p.value,
    commit: p.commit?.id ?? null,
  }));
  const base = {
    suite: s.suite,
    benchmark: s.benchmark,
    unit: s.unit,
    statistic: s.statistic,
    biggerIsBetter: s.biggerIsBetter,
    runs: s.points.length,
    values,
  };
  const threshold = settings.threshold ?? 0;
  const { changePoints, uncalled, segments } = findChangePoints(s, {
    alpha: settings.changePointAlpha,
    permutations: settings.permutations,
    seed,
    level: settings.level,
    resamples: settings.resamples,
    threshold,
  });
  const relative = relativeToSegments(s.points, segments);
  const times = s.points.map((p) => p.at);
  const notes = [...s.notes, ...uncalled.map((c) => uncalledNote(c, threshold))];
  if (s.points.length < 4)
    notes.push(
      `${s.points.length} usable run(s): too few for change points, patterns or repetitions`,
    );
  const patternSettings = {
    alpha: settings.patternAlpha,
    level: settings.level,
    resamples: settings.resamples,
    seed,
    effect: settings.effect,
  };
  return {
    ...base,
    changePoints,
    paired: summarisePaired(paired),
    noise: noiseOf(s.points, relative, {
      level: settings.level,
      resamples: settings.resamples,
      seed,
    }),
    patterns:
      s.points.length < 4
        ? []
        : (['hour', 'weekday', 'week'] as const).map((k) =>
            patternOf(k, times, relative, patternSettings),
          ),
    repetitions: s.points.length < 4 ? [] : repetitionErrors(relative, { seed }),
    infrastructure: infrastructureOf(s.points, relative, seed),
    notes,
  };
}

function suiteAa(benchmarks: readonly BenchmarkVariability[]): SuiteAa | null {
  const byRun = new Map<
    string,
    { at: string; comparisons: number; called: string[]; level: number }
  >();
  for (const b of benchmarks) {
    for (const m of b.noise.mde) {
      if (m.source !== 'aa') continue;
      const run = byRun.get(m.runId) ?? { at: m.at, comparisons: 0, called: [], level: m.level };
      run.comparisons++;
      byRun.set(m.runId, run);
    }
  }
  if (byRun.size === 0) return null;
  const calledByRun = calledChangedByRun(benchmarks);
  let comparisons = 0;
  let called = 0;
  for (const [runId, run] of byRun) {
    run.called = calledByRun.get(runId) ?? [];
    comparisons += run.comparisons;
    called += run.called.length;
  }
  const latest = [...byRun].sort((a, b) => a[1].at.localeCompare(b[1].at)).at(-1)!;
  return {
    runs: byRun.size,
    comparisons,
    calledChanged: called,
    rate: wilsonInterval(called, comparisons, 0.95),
    nominal: 1 - latest[1].level,
    latest: { runId: latest[0], at: latest[1].at, calledChanged: latest[1].called },
  };
}

function calledChangedByRun(benchmarks: readonly BenchmarkVariability[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const b of benchmarks) {
    for (const runId of b.noise.aaCalledChanged)
      out.set(runId, [...(out.get(runId) ?? []), b.benchmark]);
  }
  return out;
}
