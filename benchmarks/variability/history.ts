/**
 * Synthetic nightly histories with planted patterns, as history entries (schema 1), for the
 * variability benchmark and tests: a known level, noise, and optionally an hour-of-day
 * effect, a weekday effect, a step of known size at a known run, a slow drift.
 */
import { HISTORY_SCHEMA_VERSION, type HistoryEntry } from '../../src/history/schema.js';
import { createRng, type Rng } from '../../src/stats/rng.js';
import type { Verdict } from '../../src/stats/types.js';
import { decideVerdict } from '../../src/stats/verdict.js';

export interface Planted {
  runs: number;
  seed: number;
  /** Night-to-night coefficient of variation of the value (Henning et al.'s CV). Default 0.02. */
  cv?: number;
  /** First run's start (UTC). Default 2026-01-05T02:00:00Z (a Monday). */
  start?: string;
  /** Hours between runs. Default 24. */
  everyHours?: number;
  /** Relative effect per UTC hour (e.g. {12: 0.02}). */
  hourEffect?: Record<number, number>;
  /** Relative effect per weekday, 0 = Monday. */
  weekdayEffect?: Record<number, number>;
  /** A step of relative size `size` from run `at` on. */
  step?: { at: number; size: number };
  /** Relative drift per run (0.0002 = +0.02% a night). */
  drift?: number;
  /** Within-run CV of the iterations (what `cv` of the entry records). Default 0.03. */
  withinCv?: number;
  /** Add an A/A block with this MDE; calls a false positive with probability `falsePositive`. */
  aa?: { mde: number; falsePositive: number };
  /**
   * Night-over-night duets (`base-from-history: true`): every run after the first compares its
   * head with the previous run's commit. `outcome` draws that duet's change and 99% interval
   * for the true change (the step's size on the night it lands, else 0); the verdict is
   * duetkit's at `threshold`, its test significant when the interval excludes 0.
   */
  paired?: {
    threshold: number;
    outcome: (trueChange: number, rng: Rng) => { change: number; lower: number; upper: number };
  };
  benchmark?: string;
  suite?: string;
  /** Host names to rotate through (infrastructure instance). */
  hosts?: string[];
}

export function commitOf(i: number): string {
  return (i.toString(16).padStart(10, '0') + 'c0ffee'.repeat(6)).slice(0, 40);
}

/** The values alone (for statistics-only simulations). */
export function plantedValues(p: Planted): { at: number[]; values: number[] } {
  const rng = createRng(p.seed);
  const start = Date.parse(p.start ?? '2026-01-05T02:00:00Z');
  const every = (p.everyHours ?? 24) * 3_600_000;
  const at: number[] = [];
  const values: number[] = [];
  for (let i = 0; i < p.runs; i++) {
    const t = start + i * every;
    const d = new Date(t);
    let level = 100 * (1 + (p.drift ?? 0) * i);
    level *= 1 + (p.hourEffect?.[d.getUTCHours()] ?? 0);
    level *= 1 + (p.weekdayEffect?.[(d.getUTCDay() + 6) % 7] ?? 0);
    if (p.step !== undefined && i >= p.step.at) level *= 1 + p.step.size;
    at.push(t);
    values.push(level * (1 + (p.cv ?? 0.02) * rng.nextNormal()));
  }
  return { at, values };
}

/** The history entries of a planted history, oldest first. */
export function plantedHistory(p: Planted): HistoryEntry[] {
  const { at, values } = plantedValues(p);
  const rng = createRng(p.seed + 7919);
  const pairedRng = createRng(p.seed + 104729);
  return values.map((value, i) => {
    const startedAt = new Date(at[i]!).toISOString();
    const called = p.aa !== undefined && rng.nextFloat() < p.aa.falsePositive;
    const name = p.benchmark ?? 'bench';
    return {
      schemaVersion: HISTORY_SCHEMA_VERSION,
      suite: p.suite ?? 'nightly',
      runId: `run-${String(i).padStart(4, '0')}`,
      recordedAt: startedAt,
      run: {
        startedAt,
        finishedAt: startedAt,
        event: 'schedule',
        workflow: 'nightly',
        githubRunId: String(1000 + i),
        runAttempt: 1,
        url: `https://github.com/acme/app/actions/runs/${1000 + i}`,
        ref: 'refs/heads/main',
        runner: 'GitHub Actions runner',
        mode: 'duet',
        scenarioHash: null,
        seed: 1,
        complete: true,
        level: 0.99,
        threshold: 0.05,
      },
      infrastructure: {
        runnerImage: 'ubuntu24',
        runnerImageVersion: '20260101.1',
        os: 'linux',
        cpuModel: 'AMD EPYC 7763 64-Core Processor',
        machine: p.hosts === undefined ? null : { hostname: p.hosts[i % p.hosts.length]! },
        isolation: { kind: 'cgroup-v2' },
      },
      commit: {
        id: commitOf(i),
        message: `commit ${i} (#${100 + i})`,
        author: { name: 'Ada', email: 'ada@example.com' },
        timestamp: startedAt,
        url: `https://github.com/acme/app/commit/${commitOf(i)}`,
      },
      version: 'main',
      benchmarks: [
        {
          name,
          unit: 'ms',
          biggerIsBetter: false,
          valueKind: 'samples',
          statistic: 'median',
          value,
          ci: { level: 0.99, lower: value * 0.99, upper: value * 1.01, method: 'order-statistic' },
          n: 30,
          cv: (p.withinCv ?? 0.03) * (1 + 0.1 * rng.nextNormal()),
          comparison:
            p.paired === undefined || i === 0 ? null : pairedComparison(p, i, values, pairedRng),
          error: null,
        },
      ],
      ...(p.aa === undefined
        ? {}
        : {
            aa: {
              schemaVersion: 1,
              mode: 'duet',
              level: 0.99,
              threshold: 0.05,
              comparisons: 1,
              calledChanged: called ? 1 : 0,
              benchmarks: [
                {
                  name,
                  unit: 'ms',
                  change: called ? 0.06 : 0.001,
                  ci: called
                    ? { level: 0.99, lower: 0.055, upper: 0.065 }
                    : { level: 0.99, lower: -p.aa.mde / 2, upper: p.aa.mde / 2 },
                  ciWidth: called ? 0.01 : p.aa.mde,
                  mde: p.aa.mde,
                  verdict: called ? 'regression' : 'unchanged',
                  calledChanged: called,
                  pValueAdjusted: called ? 0.001 : 0.5,
                  n: 30,
                },
              ],
            },
          }),
    };
  });
}

/**
 * duetkit's verdict on a paired outcome known only by its change and 99% interval, its test
 * taken as significant when the interval excludes 0 (at the same level).
 */
export function pairedVerdict(
  o: { change: number; lower: number; upper: number },
  threshold: number,
): Verdict {
  const significant = o.lower > 0 || o.upper < 0;
  return decideVerdict({
    ...o,
    threshold,
    pValueAdjusted: significant ? 0.001 : 0.5,
    alpha: 0.01,
    biggerIsBetter: false,
    n: 30,
  }).verdict;
}

function pairedComparison(
  p: Planted,
  i: number,
  values: readonly number[],
  rng: Rng,
): NonNullable<HistoryEntry['benchmarks'][number]['comparison']> {
  const truth = p.step !== undefined && i === p.step.at ? p.step.size : 0;
  const o = p.paired!.outcome(truth, rng);
  const significant = o.lower > 0 || o.upper < 0;
  return {
    baseline: 'base',
    baseCommit: commitOf(i - 1),
    baseValue: values[i - 1]!,
    change: o.change,
    ci: { level: 0.99, lower: o.lower, upper: o.upper, method: 'order-statistic' },
    pValueAdjusted: significant ? 0.001 : 0.5,
    verdict: pairedVerdict(o, p.paired!.threshold),
    threshold: p.paired!.threshold,
  };
}
