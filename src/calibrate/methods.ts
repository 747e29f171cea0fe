import { compare } from '../stats/compare.js';
import { mean } from '../stats/descriptive.js';
import type { Statistic } from '../stats/types.js';
import { cutWindows, type Trace } from './trace.js';

/** The comparison methods calibrate and the accuracy benchmark evaluate. */
export const METHOD_NAMES = [
  'duet',
  'duet-gmean',
  'duet-none',
  'rmit',
  'mct',
  'gab-200',
  'gab-5',
] as const;
export type MethodName = (typeof METHOD_NAMES)[number];

/** Which recording a method reads: duets (with or without isolation) or a sequential trace. */
export type RecordingKind = 'duet' | 'duet-none' | 'sequential';

export interface EvaluationSettings {
  /** Time budget of one comparison, ms. */
  budgetMs: number;
  level: number;
  resamples: number;
  seed: number;
}

/** What one comparison (one window) concluded. */
export interface WindowOutcome {
  /** Machine time the comparison used, seconds. */
  seconds: number;
  /** Values per side that went into it (pairs when paired). */
  n: number;
  /** Estimated relative change head/base − 1. */
  estimate: number;
  /** Confidence interval of the change; null for methods without one. */
  lower: number | null;
  upper: number | null;
  /** Minimum detectable effect of this comparison (level, power 0.8); null without one. */
  mde: number | null;
  /** Coefficient of variation of the base side's values; null when not meaningful. */
  cv: number | null;
  /** `slower`: called a regression; `faster`: an improvement; `none`: no change called. */
  called: 'slower' | 'faster' | 'none';
}

/** One registry entry per method: what it reads and how one window is judged. */
export interface MethodDefinition {
  readonly name: MethodName;
  /** How the method is described in tables. */
  readonly label: string;
  readonly recording: RecordingKind;
  /** Windows of `trace` judged by this method, head (index) against base (index). */
  evaluate(trace: Trace, base: number, head: number, settings: EvaluationSettings): WindowOutcome[];
}

/** Paired by round; `statistic` of the pair ratios (default: the median, as in `analyze`). */
const paired = (
  label: string,
  name: MethodName,
  recording: RecordingKind,
  statistic?: Statistic,
): MethodDefinition => ({
  name,
  label,
  recording,
  evaluate(trace, base, head, settings) {
    return windowsOf(trace, base, head, settings).flatMap(({ rounds }, w) => {
      // A window of one pair (a very slow machine) is no comparison: it is skipped.
      if (rounds.length < 2) return [];
      const b = rounds.map((r) => r.values[base]!);
      const h = rounds.map((r) => r.values[head]!);
      const c = compare(b, h, {
        ...comparisonOptions(settings, w, true),
        ...(statistic === undefined ? {} : { statistic }),
      });
      return {
        seconds: cost(rounds, base, head, trace.mode) / 1000,
        n: b.length,
        ...fromInterval(c.change, c.ci.lower, c.ci.upper),
        mde: c.mde,
        cv: c.cv.base,
      };
    });
  },
});

/**
 * Multiple consecutive trials, simulated on the sequential trace: in each window, base's
 * trials of the first half of the rounds against head's trials of the second half. It uses
 * half the trials of the window (fewer values widen its interval, which can only lower its
 * false-positive rate); what it keeps is the time separation that makes it fail.
 */
const mct: MethodDefinition = {
  name: 'mct',
  label: 'mct (consecutive trials, unpaired)',
  recording: 'sequential',
  evaluate(trace, base, head, settings) {
    return windowsOf(trace, base, head, settings).flatMap(({ rounds }, w) => {
      const half = Math.floor(rounds.length / 2);
      if (half < 2) return [];
      const b = rounds.slice(0, half).map((r) => r.values[base]!);
      const h = rounds.slice(half, 2 * half).map((r) => r.values[head]!);
      const c = compare(b, h, comparisonOptions(settings, w, false));
      const spent =
        cost(rounds.slice(0, half), base, base, 'mct') +
        cost(rounds.slice(half), head, head, 'mct');
      return [
        {
          seconds: spent / 1000,
          n: half,
          ...fromInterval(c.change, c.ci.lower, c.ci.upper),
          mde: c.mde,
          cv: c.cv.base,
        },
      ];
    });
  },
};

/**
 * What github-action-benchmark does: one run of head now against one stored run of base
 * from earlier (the previous window), alert when head/base exceeds a fixed ratio (its
 * `alert-threshold`, default 200%). One run = the mean of the version's trials in the
 * window. No interval; it alerts on slowdowns only.
 */
const gab = (ratio: number, name: MethodName): MethodDefinition => ({
  name,
  label: `single run vs stored baseline, alert at ${Math.round(ratio * 100)}%`,
  recording: 'sequential',
  evaluate(trace, base, head, settings) {
    const windows = windowsOf(trace, base, head, settings);
    return windows.slice(1).map(({ rounds }, w) => {
      const before = windows[w]!.rounds.map((r) => r.values[base]!);
      const now = rounds.map((r) => r.values[head]!);
      const change = mean(now) / mean(before) - 1;
      return {
        seconds:
          (cost(windows[w]!.rounds, base, base, 'mct') + cost(rounds, head, head, 'mct')) / 1000,
        n: now.length,
        estimate: change,
        lower: null,
        upper: null,
        mde: null,
        cv: null,
        called: change + 1 > ratio ? 'slower' : 'none',
      };
    });
  },
});

const METHODS: Record<MethodName, MethodDefinition> = {
  duet: paired('duet, isolated (CPU sets)', 'duet', 'duet'),
  // the same recordings through the geometric mean of the pair ratios, for contrast
  'duet-gmean': paired('duet, isolated, geometric mean of ratios', 'duet-gmean', 'duet', 'gmean'),
  'duet-none': paired('duet, no isolation', 'duet-none', 'duet-none'),
  rmit: paired('rmit (randomized interleaved, paired by round)', 'rmit', 'sequential'),
  mct,
  'gab-200': gab(2, 'gab-200'),
  'gab-5': gab(1.05, 'gab-5'),
};

export function getMethod(name: MethodName): MethodDefinition {
  return METHODS[name];
}

/** Reads a comma-separated list of method names; the message lists what is accepted. */
export function parseMethods(text: string): MethodName[] {
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const bad = names.find((n) => !(METHOD_NAMES as readonly string[]).includes(n));
  if (bad !== undefined || names.length === 0) {
    throw new RangeError(
      `--modes: got ${JSON.stringify(bad ?? text)}; expected a comma-separated list of ${METHOD_NAMES.join(', ')}`,
    );
  }
  return [...new Set(names)] as MethodName[];
}

function windowsOf(trace: Trace, base: number, head: number, settings: EvaluationSettings) {
  const costs = trace.rounds.map((r) => cost([r], base, head, trace.mode));
  return cutWindows(costs, settings.budgetMs).map(([from, to]) => ({
    rounds: trace.rounds.slice(from, to),
  }));
}

/** Machine time of these rounds charged to a base–head comparison (a duet round once). */
function cost(rounds: Trace['rounds'], base: number, head: number, mode: Trace['mode']): number {
  let total = 0;
  for (const r of rounds) {
    total += mode === 'duet' || base === head ? r.costMs[base]! : r.costMs[base]! + r.costMs[head]!;
  }
  return total;
}

function comparisonOptions(settings: EvaluationSettings, window: number, isPaired: boolean) {
  // A change is called when the interval excludes 0 (the CI-overlap method of Japke et al.).
  return {
    paired: isPaired,
    level: settings.level,
    resamples: settings.resamples,
    seed: (settings.seed + window) >>> 0,
    threshold: 0,
  };
}

function fromInterval(change: number, lower: number, upper: number) {
  const called: WindowOutcome['called'] = lower > 0 ? 'slower' : upper < 0 ? 'faster' : 'none';
  return { estimate: change, lower, upper, called };
}
