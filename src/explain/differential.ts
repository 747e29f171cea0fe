import type { ExplainFunction, ExplainMethod } from '../contracts/explain.js';
import type { ProfileSide } from '../contracts/profile.js';
import {
  contributionStandardErrors,
  ratioDifferenceStandardErrors,
  type ChunkCounts,
} from '../stats/chunk-bootstrap.js';
import {
  contributionInterval,
  rescaleRatioInterval,
  type Bounded,
  type RatioInterval,
} from '../stats/contribution.js';
import { wilsonInterval } from '../stats/proportion.js';
import { createRng } from '../stats/rng.js';
import { studentTPpf } from '../stats/student-t.js';
import { newcombeInterval } from '../stats/two-proportions.js';
import { foldSide, type FoldedSide } from './fold.js';

/** Options of `differential`; every field has a documented default. */
export interface DifferentialOptions {
  /** Level all the intervals hold together (Bonferroni across the tested rows). Default 0.99. */
  familyLevel?: number;
  /**
   * Smallest |contribution| called beyond noise, a fraction of base's time. Default 0.005
   * (0.5%); rows whose shares cannot reach it are not tested.
   */
  minChange?: number;
  /** Chunks each side needs for the chunk bootstrap; fewer: Newcombe alone. Default 8. */
  minChunks?: number;
  /** Bootstrap resamples. Default 2,000. */
  resamples?: number;
  /** Seed of the bootstrap. Default 1. */
  seed?: number;
  /**
   * Head's time per unit of work over base's, measured (a number: taken as exact; with an
   * interval: its uncertainty joins the contribution's); when absent, from the profiles'
   * samples per unit of work, resampled with the chunks.
   */
  timeRatio?: number | RatioInterval;
  /** Where a given `timeRatio` comes from. Default `measured`. */
  timeRatioSource?: 'measured' | 'command';
}

export const DIFFERENTIAL_DEFAULTS = {
  familyLevel: 0.99,
  minChange: 0.005,
  minChunks: 8,
  resamples: 2000,
  seed: 1,
} as const;

/** Per function, its self and total share in base and head, the change and its interval. */
export interface Differential {
  samples: { base: number; head: number };
  work: { base: number; head: number };
  timeRatio: number;
  /** The time ratio's interval at each row's level (null: taken as exact). */
  timeRatioInterval: RatioInterval | null;
  timeRatioSource: 'measured' | 'command' | 'profile';
  method: ExplainMethod;
  functions: ExplainFunction[];
}

interface Row {
  name: string;
  kind: 'self' | 'total';
  base: number;
  head: number;
}

/**
 * The differential profile of base and head (docs/explain.md, "Reading the differential").
 * Shares are a side's samples in which the function is the leaf (self) or anywhere on the stack
 * (total, once per sample); a share is a ratio within one side, so the work each side did does
 * not change it, and the work enters through the time ratio r of the contributions
 * (head share × r − base share: the change of the function's time per unit of work, in units
 * of base's). Tested are the rows that could reach `minChange` (base's share or head's × r at
 * least that large; a total row only where it differs from the self row): their intervals hold
 * together at `familyLevel` (Bonferroni). A contribution's interval joins the shares'
 * uncertainty (Wilson intervals of the counts, and with enough chunks the chunk bootstrap's t
 * interval, never narrower) and r's (its interval rescaled to the row's level) by the MOVER
 * (src/stats/contribution.ts). Beyond noise: the contribution's interval excludes 0 and
 * |contribution| ≥ minChange. The change of share keeps its own interval (r exactly 1), shown
 * but not called on. Ordered: self rows, then total rows, each by contribution in the
 * direction of the change.
 * Cost O(frames + resamples · chunks · rows).
 */
export function differential(
  baseSide: ProfileSide,
  headSide: ProfileSide,
  options: DifferentialOptions = {},
): Differential {
  const o = { ...DIFFERENTIAL_DEFAULTS, ...options };
  if (!(o.familyLevel > 0 && o.familyLevel < 1)) {
    throw new RangeError(`familyLevel must be in (0, 1), got ${o.familyLevel}`);
  }
  if (!(o.minChange >= 0 && o.minChange < 1)) {
    throw new RangeError(`minChange must be in [0, 1), got ${o.minChange}`);
  }
  const base = foldSide(baseSide, 'base');
  const head = foldSide(headSide, 'head');
  for (const [name, side] of [
    ['base', base],
    ['head', head],
  ] as const) {
    if (side.samples === 0) throw new RangeError(`${name}: the profile has no samples`);
  }
  const given = o.timeRatio;
  const timeRatio =
    given === undefined
      ? profileTimeRatio(base, head, baseSide, headSide)
      : typeof given === 'number'
        ? given
        : given.estimate;
  if (!(timeRatio > 0 && Number.isFinite(timeRatio))) {
    throw new RangeError(`timeRatio must be a finite number > 0, got ${timeRatio}`);
  }
  const rows = testedRows(base, head, o.minChange, timeRatio);
  const tests = Math.max(1, rows.length);
  const level = 1 - (1 - o.familyLevel) / tests;
  // The measured ratio's interval at each row's level; exact when given as a number, and
  // for the profile's own ratio the chunk bootstrap below carries its uncertainty.
  const ratio: RatioInterval =
    given !== undefined && typeof given !== 'number'
      ? rescaleRatioInterval(given, level)
      : { estimate: timeRatio, lower: timeRatio, upper: timeRatio, level };
  const chunks = { base: base.chunks.length, head: head.chunks.length };
  const bootstrap = chunks.base >= o.minChunks && chunks.head >= o.minChunks && rows.length > 0;
  const bothWork = base.work > 0 && head.work > 0;
  const counts = bootstrap
    ? [chunkCounts(base, rows, bothWork), chunkCounts(head, rows, bothWork)]
    : null;
  const se =
    counts === null
      ? null
      : ratioDifferenceStandardErrors(counts[0]!, counts[1]!, o.resamples, createRng(o.seed));
  const periodRatio = samePeriod(baseSide, headSide) ? 1 : headSide.period! / baseSide.period!;
  const seContribution =
    counts === null
      ? null
      : contributionStandardErrors(
          counts[0]!,
          counts[1]!,
          given === undefined ? { fromChunks: { periodRatio } } : { fixed: timeRatio },
          o.resamples,
          createRng(o.seed),
        );
  // Few chunks make the standard error itself uncertain: Student's t with chunks − 1 df.
  const t =
    se === null ? 0 : studentTPpf(1 - (1 - level) / 2, Math.min(chunks.base, chunks.head) - 1);
  const functions = rows.map((row, j): ExplainFunction => {
    const k = (side: FoldedSide): number => side[row.kind].get(row.name) ?? 0;
    const score = newcombeInterval(k(head), head.samples, k(base), base.samples, level);
    const change = score.estimate;
    const lower = se === null ? score.lower : Math.min(score.lower, change - t * se[j]!);
    const upper = se === null ? score.upper : Math.max(score.upper, change + t * se[j]!);
    const share = (side: FoldedSide): Bounded => wilsonInterval(k(side), side.samples, level);
    const c = contributionInterval(share(head), share(base), ratio);
    if (seContribution !== null) {
      // The chunks' part (t × the bootstrap's error) and the measured ratio's part joined as
      // in the MOVER; never narrower than the interval on the sample counts.
      const spread = t * seContribution[j]!;
      c.lower = Math.min(
        c.lower,
        c.estimate - Math.hypot(spread, row.head * (timeRatio - ratio.lower)),
      );
      c.upper = Math.max(
        c.upper,
        c.estimate + Math.hypot(spread, row.head * (ratio.upper - timeRatio)),
      );
    }
    return {
      name: row.name,
      kind: row.kind,
      base: row.base,
      head: row.head,
      change,
      lower,
      upper,
      contribution: c.estimate,
      contributionLower: c.lower,
      contributionUpper: c.upper,
      beyondNoise: (c.lower > 0 || c.upper < 0) && Math.abs(c.estimate) >= o.minChange,
    };
  });
  return {
    samples: { base: base.samples, head: head.samples },
    work: { base: base.work, head: head.work },
    timeRatio,
    timeRatioInterval: ratio.lower < ratio.upper ? ratio : null,
    timeRatioSource: given === undefined ? 'profile' : (o.timeRatioSource ?? 'measured'),
    method: {
      interval: bootstrap ? 'bootstrap' : 'newcombe',
      familyLevel: o.familyLevel,
      tests,
      level,
      minChange: o.minChange,
      chunks,
      minChunks: o.minChunks,
      resamples: bootstrap ? o.resamples : null,
      seed: bootstrap ? o.seed : null,
    },
    functions: orderByContribution(functions, timeRatio),
  };
}

/**
 * Self rows, then total rows; each by contribution in the direction of the measured change
 * (the largest added time first for a slowdown, the largest saved first for a speed-up), then
 * by name so that the order is stable.
 */
export function orderByContribution(
  functions: readonly ExplainFunction[],
  timeRatio: number,
): ExplainFunction[] {
  const direction = timeRatio < 1 ? -1 : 1;
  return [...functions].sort(
    (a, b) =>
      (a.kind === b.kind ? 0 : a.kind === 'self' ? -1 : 1) ||
      direction * (b.contribution - a.contribution) ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
}

/**
 * The rows that could be beyond noise: base's share or head's share × the time ratio (each
 * the function's time in units of base's) at least minChange.
 */
function testedRows(
  base: FoldedSide,
  head: FoldedSide,
  minChange: number,
  timeRatio: number,
): Row[] {
  const rows: Row[] = [];
  for (const kind of ['self', 'total'] as const) {
    const names = [...new Set([...base[kind].keys(), ...head[kind].keys()])].sort();
    for (const name of names) {
      const b = base[kind].get(name) ?? 0;
      const h = head[kind].get(name) ?? 0;
      if (
        kind === 'total' &&
        b === (base.self.get(name) ?? 0) &&
        h === (head.self.get(name) ?? 0)
      ) {
        continue; // only ever a leaf: its total row is its self row
      }
      const row = { name, kind, base: b / base.samples, head: h / head.samples };
      if (Math.max(row.base, row.head * timeRatio) >= minChange && minChange > 0) rows.push(row);
      else if (minChange === 0 && (b > 0 || h > 0)) rows.push(row);
    }
  }
  return rows;
}

function chunkCounts(side: FoldedSide, rows: readonly Row[], bothWork: boolean): ChunkCounts {
  // Work unknown (0) on either side: each side did one unit in all, as in profileTimeRatio.
  return {
    rows: side.chunks.map((chunk) =>
      Float64Array.from(rows, (row) => chunk[row.kind].get(row.name) ?? 0),
    ),
    totals: Float64Array.from(side.chunks, (chunk) => chunk.samples),
    work: Float64Array.from(side.chunks, (chunk) =>
      bothWork ? chunk.work : 1 / side.chunks.length,
    ),
  };
}

/** A side whose sampling period is unknown counts as sampling at the other's. */
function samePeriod(base: ProfileSide, head: ProfileSide): boolean {
  return base.period === null || head.period === null;
}

/**
 * Head's time per unit of work over base's from the profiles: samples × period ÷ work. A
 * side whose work or period is unknown (0, null) counts as the other's.
 */
function profileTimeRatio(
  base: FoldedSide,
  head: FoldedSide,
  baseSide: ProfileSide,
  headSide: ProfileSide,
): number {
  const same = samePeriod(baseSide, headSide);
  const period = (side: ProfileSide): number => (same ? 1 : side.period!);
  const perWork = (side: FoldedSide): number => (side.work > 0 ? side.work : 1);
  const bothWork = base.work > 0 && head.work > 0;
  const tb = (base.samples * period(baseSide)) / (bothWork ? perWork(base) : 1);
  const th = (head.samples * period(headSide)) / (bothWork ? perWork(head) : 1);
  return th / tb;
}
