import { compare } from '../stats/compare.js';
import { eDivisive } from '../stats/e-divisive.js';
import type { BenchmarkSeries, SeriesPoint } from './series.js';

export { pullRequestOf } from '../git/pull-request.js';

export interface ChangePointSettings {
  /** Significance level of E-Divisive's permutation tests. Default 0.01. */
  alpha: number;
  permutations: number;
  seed: number;
  /** Level of the step's interval. */
  level: number;
  resamples: number;
  /**
   * Practical threshold (fraction ≥ 0) a step's interval must clear to be called, as a
   * verdict's must: the whole interval beyond +threshold or beyond −threshold. Default 0: the
   * interval must exclude no change.
   */
  threshold?: number;
}

/** A commit as a change point reports it (PR number from the message, when there is one). */
export interface RangeCommit {
  id: string;
  subject: string;
  pullRequest: number | null;
}

/** A step change in a benchmark's series on main. */
export interface ChangePoint {
  /** Position in the series of the first run after the change. */
  index: number;
  /** The last run before the change and the first after it. */
  before: RunRef;
  after: RunRef;
  /** Commits after `before.commit` up to and including `after.commit` hold the cause. */
  range: { from: string | null; to: string | null; compareUrl: string | null };
  /** Relative change of the median, after vs before (neighbouring segments), with its CI. */
  step: {
    change: number;
    lower: number | null;
    upper: number | null;
    level: number;
    runsBefore: number;
    runsAfter: number;
    note?: string;
  };
  /** `regression` or `improvement` by the metric's direction. */
  direction: 'regression' | 'improvement';
  pValue: number;
  permutations: number;
  /** Filled by the caller when a git repository is at hand (`git log from..to`). */
  commits?: RangeCommit[];
}

export interface RunRef {
  runId: string;
  at: string;
  commit: string | null;
  subject: string | null;
  url: string | null;
}

/**
 * Change points of one series by E-Divisive (Matteson & James 2014) with a permutation test,
 * each with the commit range it lies in and the step's size: the ratio of the medians of the
 * neighbouring segments, with a bootstrap interval (each side resampled independently). A
 * split whose step interval contains no change (0, or anything within ±threshold) is not
 * called: the permutation test says the distributions differ, but not that the level moved
 * (a few wild runs on one side do that); it is returned in `uncalled`, its segments kept.
 * Also returns the segments' bounds, for analyses that must not mix levels. Pure.
 */
export function findChangePoints(
  series: BenchmarkSeries,
  settings: ChangePointSettings,
): {
  changePoints: ChangePoint[];
  uncalled: ChangePoint[];
  segments: [number, number][];
  rejectedPValue: number | null;
} {
  const values = series.points.map((p) => p.value);
  if (values.length < 4)
    return { changePoints: [], uncalled: [], segments: [[0, values.length]], rejectedPValue: null };
  const found = eDivisive(values, {
    alpha: settings.alpha,
    permutations: settings.permutations,
    seed: settings.seed,
  });
  const cuts = found.changePoints.map((c) => c.index);
  const edges = [0, ...cuts, values.length];
  const segments = edges.slice(1).map((e, i) => [edges[i]!, e] as [number, number]);
  const splits = found.changePoints.map((c, i): ChangePoint => {
    const left = values.slice(edges[i]!, c.index);
    const right = values.slice(c.index, edges[i + 2]!);
    const step = stepOf(left, right, settings, i);
    const before = series.points[c.index - 1]!;
    const after = series.points[c.index]!;
    const worse = series.biggerIsBetter ? step.change < 0 : step.change > 0;
    return {
      index: c.index,
      before: refOf(before),
      after: refOf(after),
      range: {
        from: before.commit?.id ?? null,
        to: after.commit?.id ?? null,
        compareUrl: compareUrl(before, after),
      },
      step,
      direction: worse ? 'regression' : 'improvement',
      pValue: c.pValue,
      permutations: c.permutations,
    };
  });
  const threshold = settings.threshold ?? 0;
  return {
    changePoints: splits.filter((c) => stepIsCalled(c.step, threshold)),
    uncalled: splits.filter((c) => !stepIsCalled(c.step, threshold)),
    segments,
    rejectedPValue: found.rejected?.pValue ?? null,
  };
}

/**
 * Whether a step is a change: its whole interval beyond +threshold or beyond −threshold. A
 * step with no interval yet (one run on a side) is called on its estimate, with its note.
 */
export function stepIsCalled(step: ChangePoint['step'], threshold: number): boolean {
  if (step.lower === null || step.upper === null) return Math.abs(step.change) > threshold;
  return step.lower > threshold || step.upper < -threshold;
}

function stepOf(
  left: number[],
  right: number[],
  settings: ChangePointSettings,
  i: number,
): ChangePoint['step'] {
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const h = (s.length - 1) / 2;
    return (s[Math.floor(h)]! + s[Math.ceil(h)]!) / 2;
  };
  const base = { level: settings.level, runsBefore: left.length, runsAfter: right.length };
  if (left.length < 2 || right.length < 2) {
    return {
      ...base,
      change: median(right) / median(left) - 1,
      lower: null,
      upper: null,
      note: 'one run on a side of the change: no interval until more runs come',
    };
  }
  const c = compare(left, right, {
    paired: false,
    statistic: 'median',
    level: settings.level,
    resamples: settings.resamples,
    seed: settings.seed + i + 1,
    method: 'percentile',
  });
  return { ...base, change: c.change, lower: c.ci.lower, upper: c.ci.upper };
}

function refOf(p: SeriesPoint): RunRef {
  return {
    runId: p.runId,
    at: new Date(p.at).toISOString(),
    commit: p.commit?.id ?? null,
    subject: p.commit?.message ?? null,
    url: p.commit?.url ?? p.runUrl,
  };
}

/** Why a split was not called, for the benchmark's notes. */
export function uncalledNote(c: ChangePoint, threshold: number): string {
  const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(2)}%`;
  const step =
    c.step.lower === null || c.step.upper === null
      ? `${pct(c.step.change)} (no interval)`
      : `${pct(c.step.change)} [${pct(c.step.lower)}, ${pct(c.step.upper)}]`;
  const within =
    threshold === 0 ? 'contains no change' : `reaches within ±${pct(threshold).slice(1)}`;
  return `E-Divisive split the series at run ${c.after.runId} (p = ${c.pValue.toPrecision(2)}), not called a change point: the step ${step} ${within}`;
}

/** `.../compare/A...B` from a GitHub commit URL, when both commits are known. */
function compareUrl(before: SeriesPoint, after: SeriesPoint): string | null {
  const url = after.commit?.url;
  if (url === null || url === undefined || before.commit === null || after.commit === null)
    return null;
  const m = /^(https?:\/\/.+)\/commit\/[0-9a-f]+$/.exec(url);
  return m === null ? null : `${m[1]}/compare/${before.commit.id}...${after.commit.id}`;
}
