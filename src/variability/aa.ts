import { z } from 'zod';
import { isExactTie } from '../analyze/report.js';
import type { ComparisonReport } from '../contracts/comparison.js';
import type { HistoryEntry } from '../history/schema.js';
import type { SamplesFile } from '../contracts/samples.js';
import { callsChange } from '../stats/verdict.js';

/** Version of the `aa` block of a history entry (the nightly A/A duet's figures). */
export const AA_SCHEMA_VERSION = 1;

/** One benchmark of tonight's A/A duet: main against itself, judged the way PRs are. */
export interface AaBenchmark {
  name: string;
  unit: string;
  /** Relative change head/base − 1 (0 in truth: both sides are the same commit). */
  change: number;
  ci: { level: number; lower: number; upper: number };
  /** upper − lower of the interval: the runner's noise tonight, as a relative change. */
  ciWidth: number;
  /** Smallest change this run could detect at the CI level (with the run's power). */
  mde: number;
  verdict: 'regression' | 'improvement' | 'unchanged' | 'inconclusive';
  /** The verdict said regression or improvement: a false positive, by construction. */
  calledChanged: boolean;
  pValueAdjusted: number | null;
  n: number;
}

/** The `aa` block of an entry (HistoryEntry['aa'], reserved by the store for this issue). */
export interface AaBlock {
  schemaVersion: typeof AA_SCHEMA_VERSION;
  mode: string;
  level: number;
  threshold: number;
  /** Benchmarks compared, and how many of them were called changed. */
  comparisons: number;
  calledChanged: number;
  benchmarks: AaBenchmark[];
}

const finite = z.number().refine(Number.isFinite, 'a finite number');
const aaBenchmarkSchema = z.looseObject({
  name: z.string().min(1),
  unit: z.string(),
  change: finite,
  ci: z.looseObject({ level: z.number().gt(0).lt(1), lower: finite, upper: finite }),
  ciWidth: finite,
  mde: z.number().min(0),
  verdict: z.enum(['regression', 'improvement', 'unchanged', 'inconclusive']),
  calledChanged: z.boolean(),
  pValueAdjusted: z.number().min(0).max(1).nullable(),
  n: z.number().int().min(0),
});
const aaBlockSchema = z.looseObject({
  schemaVersion: z.literal(AA_SCHEMA_VERSION),
  mode: z.string(),
  level: z.number().gt(0).lt(1),
  threshold: finite,
  comparisons: z.number().int().min(0),
  calledChanged: z.number().int().min(0),
  benchmarks: z.array(aaBenchmarkSchema),
});

/**
 * The A/A figures of a run whose two versions were the same commit. Benchmarks that failed,
 * formed no ratio, were not measured within the budget or are exact ties are not comparisons
 * and are left out (the entry's benchmarks keep their errors). Pure.
 */
export function aaFromReport(report: ComparisonReport): AaBlock {
  const benchmarks: AaBenchmark[] = [];
  for (const r of report.results) {
    const c = r.comparison;
    // an exact tie (the same allocs/op on both sides) has no interval to learn noise from
    if (c === null || isExactTie(r)) continue;
    const calledChanged = callsChange(c.verdict);
    benchmarks.push({
      name: r.benchmark,
      unit: r.unit,
      change: c.change,
      ci: { level: c.ci.level, lower: c.ci.lower, upper: c.ci.upper },
      ciWidth: c.ci.upper - c.ci.lower,
      mde: c.mde,
      verdict: c.verdict,
      calledChanged,
      pValueAdjusted: c.test.pValueAdjusted,
      n: Math.min(c.n.base, c.n.head),
    });
  }
  return {
    schemaVersion: AA_SCHEMA_VERSION,
    mode: report.mode,
    level: report.settings.level,
    threshold: report.settings.threshold,
    comparisons: benchmarks.length,
    calledChanged: benchmarks.filter((b) => b.calledChanged).length,
    benchmarks,
  };
}

/**
 * An entry of an A/A run: its `aa` block filled from the run's comparisons, and the
 * benchmarks' `comparison` removed — head and base were the same commit, so the change of the
 * entry would be a comparison of main with itself, not a change of main. Pure.
 */
export function withAa(entry: HistoryEntry, report: ComparisonReport): HistoryEntry {
  return {
    ...entry,
    aa: aaFromReport(report) as unknown as HistoryEntry['aa'],
    benchmarks: entry.benchmarks.map((b) => ({ ...b, comparison: null })),
  };
}

/**
 * Whether a run compared a version with itself (an A/A run): the baseline and the head
 * were checked out from refs that are the same commit, or ran in the same directory (a scenario whose two versions have the
 * same `path`, like scenarios/aa.yml). Only a run with exactly two versions qualifies.
 */
export function isAaRun(samples: SamplesFile, baseline: string): boolean {
  if (samples.versions.length !== 2) return false;
  const base = samples.versions.find((v) => v.name === baseline);
  const head = samples.versions.find((v) => v.name !== baseline);
  if (base === undefined || head === undefined) return false;
  // two paths in one repository share its commit but are different code: a commit counts
  // only for versions checked out from refs
  if ('ref' in base.source && 'ref' in head.source) {
    return base.commit !== null && base.commit === head.commit;
  }
  return 'path' in base.source && 'path' in head.source && base.dir === head.dir;
}

/**
 * The entry a run publishes: with its A/A figures (see `withAa`) when the run was an A/A run,
 * else as built. The one place the store's entry and this issue's `aa` block meet.
 */
export function entryWithAa(
  entry: HistoryEntry,
  samples: SamplesFile,
  report: ComparisonReport,
): HistoryEntry {
  return isAaRun(samples, report.settings.baseline) ? withAa(entry, report) : entry;
}

/** The `aa` block of a stored entry, validated; a bad block is reported, never trusted. */
export function readAa(entry: HistoryEntry): { block: AaBlock | null; problem: string | null } {
  if (entry.aa === undefined) return { block: null, problem: null };
  const parsed = aaBlockSchema.safeParse(entry.aa);
  if (parsed.success) return { block: parsed.data as AaBlock, problem: null };
  const issue = parsed.error.issues[0]!;
  return {
    block: null,
    problem: `aa.${issue.path.join('.')}: ${issue.message}`,
  };
}
