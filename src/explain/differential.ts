import type { ExplainFunction, ExplainMethod } from '../contracts/explain.js';
import type { ProfileSide } from '../contracts/profile.js';
import { ratioDifferenceStandardErrors, type ChunkCounts } from '../stats/chunk-bootstrap.js';
import { createRng } from '../stats/rng.js';
import { studentTPpf } from '../stats/student-t.js';
import { newcombeInterval } from '../stats/two-proportions.js';
import { foldSide, type FoldedSide } from './fold.js';

/** Options of `differential`; every field has a documented default. */
export interface DifferentialOptions {
  /** Level all the intervals hold together (Bonferroni across the tested rows). Default 0.99. */
  familyLevel?: number;
  /** Smallest change of share called beyond noise, a fraction. Default 0.005 (0.5 pp). */
  minChange?: number;
  /** Chunks each side needs for the chunk bootstrap; fewer: Newcombe alone. Default 8. */
  minChunks?: number;
  /** Bootstrap resamples. Default 2,000. */
  resamples?: number;
  /** Seed of the bootstrap. Default 1. */
  seed?: number;
  /**
   * Head's time per unit of work over base's, from the measured comparison; when absent, from
   * the profiles' samples per unit of work.
   */
  timeRatio?: number;
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
  timeRatioSource: 'measured' | 'profile';
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
 * not change it, and the work enters through the time ratio of the contributions. Tested are
 * the rows that could reach `minChange` (either share at least that large; a total row only
 * where it differs from the self row): their intervals hold together at `familyLevel`
 * (Bonferroni). Beyond noise: the interval excludes 0 and |change| ≥ minChange. Ordered: self
 * rows, then total rows, each by contribution in the direction of the change.
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
  const timeRatio = o.timeRatio ?? profileTimeRatio(base, head, baseSide, headSide);
  if (!(timeRatio > 0 && Number.isFinite(timeRatio))) {
    throw new RangeError(`timeRatio must be a finite number > 0, got ${timeRatio}`);
  }
  const rows = testedRows(base, head, o.minChange);
  const tests = Math.max(1, rows.length);
  const level = 1 - (1 - o.familyLevel) / tests;
  const chunks = { base: base.chunks.length, head: head.chunks.length };
  const bootstrap = chunks.base >= o.minChunks && chunks.head >= o.minChunks && rows.length > 0;
  const se = bootstrap
    ? ratioDifferenceStandardErrors(
        chunkCounts(base, rows),
        chunkCounts(head, rows),
        o.resamples,
        createRng(o.seed),
      )
    : null;
  // Few chunks make the standard error itself uncertain: Student's t with chunks − 1 df.
  const t =
    se === null ? 0 : studentTPpf(1 - (1 - level) / 2, Math.min(chunks.base, chunks.head) - 1);
  const functions = rows.map((row, j): ExplainFunction => {
    const k = (side: FoldedSide): number => side[row.kind].get(row.name) ?? 0;
    const score = newcombeInterval(k(head), head.samples, k(base), base.samples, level);
    const change = score.estimate;
    const lower = se === null ? score.lower : Math.min(score.lower, change - t * se[j]!);
    const upper = se === null ? score.upper : Math.max(score.upper, change + t * se[j]!);
    return {
      name: row.name,
      kind: row.kind,
      base: row.base,
      head: row.head,
      change,
      lower,
      upper,
      contribution: row.head * timeRatio - row.base,
      beyondNoise: (lower > 0 || upper < 0) && Math.abs(change) >= o.minChange,
    };
  });
  return {
    samples: { base: base.samples, head: head.samples },
    work: { base: base.work, head: head.work },
    timeRatio,
    timeRatioSource: o.timeRatio === undefined ? 'profile' : 'measured',
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

/** The rows that could be beyond noise: a share ≥ minChange on either side. */
function testedRows(base: FoldedSide, head: FoldedSide, minChange: number): Row[] {
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
      if (Math.max(row.base, row.head) >= minChange && minChange > 0) rows.push(row);
      else if (minChange === 0 && (b > 0 || h > 0)) rows.push(row);
    }
  }
  return rows;
}

function chunkCounts(side: FoldedSide, rows: readonly Row[]): ChunkCounts {
  return {
    rows: side.chunks.map((chunk) =>
      Float64Array.from(rows, (row) => chunk[row.kind].get(row.name) ?? 0),
    ),
    totals: Float64Array.from(side.chunks, (chunk) => chunk.samples),
  };
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
  const samePeriod = baseSide.period === null || headSide.period === null;
  const period = (side: ProfileSide): number => (samePeriod ? 1 : side.period!);
  const perWork = (side: FoldedSide): number => (side.work > 0 ? side.work : 1);
  const bothWork = base.work > 0 && head.work > 0;
  const tb = (base.samples * period(baseSide)) / (bothWork ? perWork(base) : 1);
  const th = (head.samples * period(headSide)) / (bothWork ? perWork(head) : 1);
  return th / tb;
}
