import { suiteKey } from '../history/layout.js';
import { compareEntries, type HistoryEntry } from '../history/schema.js';
import type { DeriveInput } from '../history/store.js';
import { coefficientOfVariation } from '../stats/descriptive.js';
import { minimumDetectableEffect } from '../stats/power.js';
import { findChangePoints } from './change-points.js';
import { relativeToSegments } from './normalise.js';
import { isCalled } from './paired.js';
import { buildSeries } from './series.js';

/** Version of `data/<suite>/variability.json`, the dashboard's variability data. */
export const VARIABILITY_DATA_VERSION = 1;
/** Newest runs the dashboard's variability view covers (bounds the cost of a publish). */
export const VARIABILITY_WINDOW = 120;
/** Runs of the rolling between-run CV. */
const ROLLING = 14;

export interface VariabilityDataBenchmark {
  name: string;
  unit: string;
  biggerIsBetter: boolean;
  /** Run start (ms), value, value relative to its segment's median, segment median. */
  t: number[];
  v: number[];
  rel: number[];
  seg: number[];
  /** Rolling between-run CV (last 14 runs of `rel`); null for the first runs. */
  cv: (number | null)[];
  /** MDE at 99% (A/A duet's, else from the run's CV and n); null when neither is known. */
  mde: (number | null)[];
  /** 1 when the run's A/A duet called this benchmark changed, 0 when not, null: no A/A. */
  aa: (0 | 1 | null)[];
  changePoints: {
    index: number;
    at: number;
    change: number;
    lower: number | null;
    upper: number | null;
    direction: 'regression' | 'improvement';
    from: string | null;
    to: string | null;
    compareUrl: string | null;
  }[];
  /**
   * Steps a run's paired comparison against its base commit called (`base-from-history`):
   * the run's start (ms), change with its interval, verdict and commits. Absent in data
   * written before it existed.
   */
  steps?: {
    at: number;
    change: number;
    lower: number;
    upper: number;
    direction: 'regression' | 'improvement';
    from: string;
    to: string | null;
  }[];
}

export interface VariabilityData {
  schemaVersion: typeof VARIABILITY_DATA_VERSION;
  suite: string;
  /** Runs covered (the newest VARIABILITY_WINDOW at most). */
  runs: number;
  benchmarks: VariabilityDataBenchmark[];
}

/** Where the dashboard finds a suite's variability data, relative to the history folder. */
export function variabilityDataPath(suite: string): string {
  return `data/${suiteKey(suite)}/variability.json`;
}

/**
 * The dashboard's variability data of one suite, from its newest runs (pure): per benchmark the
 * values, change points (E-Divisive, the report's settings), rolling CV, MDE and A/A calls.
 */
export function variabilityData(suite: string, entries: readonly HistoryEntry[]): VariabilityData {
  const newest = [...entries].sort(compareEntries).slice(-VARIABILITY_WINDOW);
  const { series } = buildSeries(newest, { suite });
  return {
    schemaVersion: VARIABILITY_DATA_VERSION,
    suite,
    runs: newest.length,
    benchmarks: series.map((s) => {
      const { changePoints, segments } = findChangePoints(s, {
        alpha: 0.01,
        permutations: 499,
        seed: 1,
        level: 0.95,
        resamples: 1000,
      });
      const rel = relativeToSegments(s.points, segments);
      const seg = s.points.map((p, i) => p.value / (1 + rel[i]!));
      return {
        name: s.benchmark,
        unit: s.unit,
        biggerIsBetter: s.biggerIsBetter,
        t: s.points.map((p) => p.at),
        v: s.points.map((p) => p.value),
        rel,
        seg,
        cv: rel.map((_, i) =>
          i + 1 < ROLLING
            ? null
            : coefficientOfVariation(rel.slice(i + 1 - ROLLING, i + 1).map((r) => 1 + r)),
        ),
        mde: s.points.map((p) =>
          p.aa !== null
            ? p.aa.mde
            : p.cv !== null && p.n >= 2
              ? minimumDetectableEffect(p.n, p.cv, { level: 0.99 })
              : null,
        ),
        aa: s.points.map((p) => (p.aa === null ? null : p.aa.calledChanged ? 1 : 0)),
        changePoints: changePoints.map((c) => ({
          index: c.index,
          at: Date.parse(c.after.at),
          change: c.step.change,
          lower: c.step.lower,
          upper: c.step.upper,
          direction: c.direction,
          from: c.range.from,
          to: c.range.to,
          compareUrl: c.range.compareUrl,
        })),
        steps: s.points.flatMap((p) =>
          p.paired === null || !isCalled(p.paired)
            ? []
            : [
                {
                  at: p.at,
                  change: p.paired.change,
                  lower: p.paired.ci.lower,
                  upper: p.paired.ci.upper,
                  direction: p.paired.verdict,
                  from: p.paired.baseCommit,
                  to: p.paired.headCommit,
                },
              ],
        ),
      };
    }),
  };
}

/**
 * The store's deriver: on a publish that adds a nightly run (an A/A entry, or a `schedule` or
 * `workflow_dispatch` run), `data/<suite>/variability.json` is rebuilt from the suite's newest
 * VARIABILITY_WINDOW runs — a bounded cost, whatever the history's length. Other publishes
 * (pushes, PR-independent imports) leave it as it is.
 */
export async function deriveVariability(input: DeriveInput): Promise<Map<string, string | null>> {
  const nightly = input.added.some(
    (s) =>
      s.entry.aa !== undefined ||
      s.entry.run.event === 'schedule' ||
      s.entry.run.event === 'workflow_dispatch',
  );
  if (!nightly) return new Map();
  const keep = Math.max(0, VARIABILITY_WINDOW - input.added.length);
  const stored = keep === 0 ? [] : await input.load(input.files.slice(-keep));
  const data = variabilityData(
    input.suite,
    [...stored, ...input.added].map((s) => s.entry),
  );
  return new Map([[variabilityDataPath(input.suite), `${JSON.stringify(data)}\n`]]);
}
