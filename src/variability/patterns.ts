import { median } from '../stats/descriptive.js';
import { kruskalWallis } from '../stats/kruskal.js';
import { bootstrapOneSample, type StatisticInterval } from '../stats/one-sample-bootstrap.js';
import { pairwiseMannWhitney } from '../stats/pairwise.js';
import { normalPpf } from '../stats/normal.js';

export type PatternKind = 'hour' | 'weekday' | 'week';

export interface PatternSettings {
  /** Level of the Kruskal–Wallis test and of the Holm-adjusted pairwise tests. Default 0.05. */
  alpha: number;
  level: number;
  resamples: number;
  seed: number;
  /** The effect a team wants to see, for "how much data would be needed" (fraction). */
  effect: number;
}

export interface PatternGroup {
  /** `03` (UTC hour), `Mon`, `2026-W07`. */
  label: string;
  n: number;
  /** Median of the values relative to their segment's median, with its bootstrap CI. */
  median: StatisticInterval;
}

export interface Pattern {
  kind: PatternKind;
  /** Groups with at least 2 runs, in natural order. */
  groups: PatternGroup[];
  /** Groups left out for having a single run. */
  tooSmall: string[];
  /** Null when fewer than 2 groups have data. */
  kruskal: { statistic: number; df: number; pValue: number } | null;
  /** Pairwise Mann–Whitney p-values, Holm-adjusted, indexed like `groups`. */
  pairwise: (number | null)[][] | null;
  /** Kruskal–Wallis rejects at alpha: the groups differ. */
  found: boolean;
  /** Largest difference between two group medians (fraction), and which. */
  spread: { difference: number; low: string; high: string } | null;
  /**
   * What this data can see: the smallest difference between two groups of the median size
   * detectable by the Holm-adjusted pairwise test with 80% power, and the runs per group a
   * difference of `effect` would need.
   */
  power: { detectable: number; runsPerGroupForEffect: number; effect: number } | null;
  /** One line for the report. */
  summary: string;
}

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** The group a time (ms, UTC) falls in. */
export function groupOf(kind: PatternKind, at: number): string {
  const d = new Date(at);
  if (kind === 'hour') return String(d.getUTCHours()).padStart(2, '0');
  if (kind === 'weekday') return WEEKDAYS[(d.getUTCDay() + 6) % 7]!;
  return isoWeek(d);
}

/** ISO 8601 week, e.g. `2026-W07` (weeks start on Monday; week 1 holds the first Thursday). */
export function isoWeek(d: Date): string {
  const t = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  const weekday = (t.getUTCDay() + 6) % 7;
  t.setUTCDate(t.getUTCDate() - weekday + 3); // the Thursday of this week
  const year = t.getUTCFullYear();
  // the week's Thursday lies in week ⌊(its day of the year − 1)/7⌋ + 1
  const week = Math.floor((t.getTime() - Date.UTC(year, 0, 1)) / 86_400_000 / 7) + 1;
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/**
 * Does the value depend on the hour of day (UTC), the weekday or the ISO week? Henning et
 * al.'s analysis (FSE'25 §5.2–5.4): per group the median with a bootstrap CI, a Kruskal–Wallis
 * test across groups, pairwise Mann–Whitney p-values (Holm-adjusted here). Values are relative
 * to their segment's median, so steps on main are not taken for a pattern. Pure.
 */
export function patternOf(
  kind: PatternKind,
  times: readonly number[],
  relative: readonly number[],
  settings: PatternSettings,
): Pattern {
  const byGroup = new Map<string, number[]>();
  times.forEach((t, i) => {
    const g = groupOf(kind, t);
    byGroup.set(g, [...(byGroup.get(g) ?? []), relative[i]!]);
  });
  const labels = [...byGroup.keys()].sort(
    kind === 'weekday' ? (a, b) => WEEKDAYS.indexOf(a) - WEEKDAYS.indexOf(b) : undefined,
  );
  const kept = labels.filter((l) => byGroup.get(l)!.length >= 2);
  const tooSmall = labels.filter((l) => byGroup.get(l)!.length < 2);
  const groups = kept.map((label, i) => ({
    label,
    n: byGroup.get(label)!.length,
    median: bootstrapOneSample(byGroup.get(label)!, 'median', {
      level: settings.level,
      resamples: settings.resamples,
      seed: settings.seed + i,
    }),
  }));
  const base = { kind, groups, tooSmall };
  const what = kind === 'hour' ? 'hour of day (UTC)' : kind === 'weekday' ? 'weekday' : 'ISO week';
  if (groups.length < 2) {
    return {
      ...base,
      kruskal: null,
      pairwise: null,
      found: false,
      spread: null,
      power: null,
      summary:
        labels.length <= 1
          ? `one ${what} only (${labels[0] ?? 'none'}): no ${what} analysis; runs at several ${kind === 'hour' ? 'hours' : kind === 'weekday' ? 'weekdays' : 'weeks'} would allow one`
          : `fewer than 2 ${what} groups with 2 runs or more: no ${what} analysis yet`,
    };
  }
  const values = kept.map((l) => byGroup.get(l)!);
  const kw = kruskalWallis(values);
  const pairwise = pairwiseMannWhitney(values, 'holm').adjusted;
  const found = kw.pValue < settings.alpha;
  let low = groups[0]!;
  let high = groups[0]!;
  for (const g of groups) {
    if (g.median.estimate < low.median.estimate) low = g;
    if (g.median.estimate > high.median.estimate) high = g;
  }
  const spread = {
    difference: high.median.estimate - low.median.estimate,
    low: low.label,
    high: high.label,
  };
  const power = powerOf(values, settings);
  const pct = (x: number) => `${(x * 100).toFixed(2)}%`;
  const summary = found
    ? `pattern by ${what}: Kruskal–Wallis p = ${formatP(kw.pValue)}; ${high.label} is ${pct(spread.difference)} above ${low.label} (medians)`
    : `no pattern by ${what} found (Kruskal–Wallis p = ${formatP(kw.pValue)}, ${groups.length} groups); this data would show a difference ≥ ${pct(power.detectable)} between two groups; ${pct(power.effect)} would need about ${power.runsPerGroupForEffect} runs per group`;
  return {
    ...base,
    kruskal: { statistic: kw.statistic, df: kw.df, pValue: kw.pValue },
    pairwise,
    found,
    spread,
    power,
    summary,
  };
}

/**
 * Normal approximation for the pairwise Mann–Whitney test of two groups: a difference d in
 * units of the spread σ is detected with power 1 − β when n ≥ 2((z₁₋α'/₂ + z₁₋β)σ/d)²·π/3,
 * α' = α/(k(k−1)/2) (the strictest step of Holm), π/3 the inverse of the test's asymptotic
 * efficiency against the t test under normality (Noether 1955).
 */
function powerOf(
  values: readonly number[][],
  settings: PatternSettings,
): NonNullable<Pattern['power']> {
  const k = values.length;
  const pooled = values.flatMap((g) => g.map((v) => v - median(g)));
  const sd = Math.sqrt(pooled.reduce((s, v) => s + v * v, 0) / Math.max(1, pooled.length - k));
  const sizes = values.map((g) => g.length).sort((a, b) => a - b);
  const n = sizes[Math.floor(sizes.length / 2)]!;
  const alpha = settings.alpha / ((k * (k - 1)) / 2);
  const z = normalPpf(1 - alpha / 2) + normalPpf(0.8);
  const efficiency = Math.PI / 3;
  return {
    detectable: z * sd * Math.sqrt((2 * efficiency) / n),
    runsPerGroupForEffect: Math.max(
      2,
      Math.ceil(2 * ((z * sd) / settings.effect) ** 2 * efficiency),
    ),
    effect: settings.effect,
  };
}

export function formatP(p: number): string {
  return p < 1e-4 ? p.toExponential(1) : p.toFixed(4);
}
