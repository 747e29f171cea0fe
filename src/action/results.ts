import { STATISTICS } from '../stats/types.js';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { UserError } from '../errors.js';
import type { ComparisonReport } from '../contracts/comparison.js';
import type { RunMeta } from '../report/run-meta.js';

/**
 * The results directory a `run` step leaves (and the fork-safe pair uploads as an artifact):
 * `samples.json`, `comparison.json`, `comment.md` and `duetkit-run.json`, which says what the
 * comment step needs besides the comparison.
 */
export const RESULT_FILES = {
  samples: 'samples.json',
  comparison: 'comparison.json',
  comment: 'comment.md',
  run: 'duetkit-run.json',
} as const;

export interface RunRecord {
  schemaVersion: 1;
  suite: string;
  /** The PR the results belong to, and the head commit they measured. */
  pullRequest: { number: number; headSha: string } | null;
  meta: RunMeta;
}

export async function writeResult(dir: string, file: string, text: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const target = path.join(dir, file);
  await writeFile(target, text.endsWith('\n') ? text : `${text}\n`);
  return target;
}

// The artifact comes from a workflow that ran a fork's code: check every field the renderer
// reads, so a tampered file is refused with a message instead of rendering garbage.
const finite = z.number().refine(Number.isFinite, 'a finite number');
const side = z.looseObject({ median: finite, mean: finite, gmean: finite.nullable(), cv: finite });
const comparison = z.looseObject({
  change: finite,
  ci: z.looseObject({
    level: finite,
    lower: finite,
    upper: finite,
    method: z.enum(['percentile', 'bca']),
    resamples: z.number().int(),
    seed: z.number().int(),
    bootstrap: z.enum(['unpaired', 'paired', 'block']),
    blockLength: z.number().int().optional(),
  }),
  test: z.looseObject({
    name: z.enum(['mann-whitney-u', 'wilcoxon-signed-rank', 'trimmed-t', 'exact']),
    pValueAdjusted: finite,
    adjustment: z.enum(['holm', 'bh', 'none']),
  }),
  n: z.object({ base: z.number().int(), head: z.number().int() }),
  base: side,
  head: side,
  paired: z.boolean(),
  statistic: z.enum(STATISTICS),
  biggerIsBetter: z.boolean(),
  threshold: finite,
  mde: finite,
  power: finite,
  verdict: z.enum(['regression', 'improvement', 'unchanged', 'inconclusive']),
  moreSamplesNeeded: z.number().int().nullable(),
  seed: z.number().int(),
  notes: z.array(z.string()),
});
const notComparable = z.looseObject({
  reason: z.string(),
  statistic: z.enum(STATISTICS),
  base: side,
  head: side,
});
const count = z.number().int().min(0);
// What the renderers read of a differential profile (contracts/explain.ts): the names are the
// profiled program's own and are escaped where they are shown.
const explain = z.looseObject({
  profiler: z.enum(['perf', 'pprof', 'py-spy', 'node']).nullable(),
  samples: z.object({ base: count, head: count }),
  seconds: finite,
  timeRatioSource: z.enum(['measured', 'command', 'profile']).nullable().optional(),
  timeRatioInterval: z
    .object({ lower: finite, upper: finite, level: finite })
    .nullable()
    .optional(),
  functions: z
    .array(
      z.looseObject({
        name: z.string().max(2000),
        kind: z.enum(['self', 'total']),
        base: finite,
        head: finite,
        change: finite,
        lower: finite,
        upper: finite,
        contribution: finite,
        // Absent in explain blocks written before contributions had intervals.
        contributionLower: finite.optional(),
        contributionUpper: finite.optional(),
        beyondNoise: z.boolean(),
      }),
    )
    .max(1000),
  files: z.object({ flameGraph: z.string().nullable(), raw: z.array(z.string()) }),
  warning: z.string().nullable(),
});
// Version 1 (no `notComparable`), 2 (no `unmeasured`, no `exact`) and 3 (no `explain`) read as
// version 4 with none.
const reportSchema = z.looseObject({
  schemaVersion: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
  scenario: z.string(),
  mode: z.enum(['duet', 'rmit', 'mit', 'mct', 'single']),
  paired: z.boolean(),
  complete: z.boolean(),
  stopReason: z.enum(['iterations', 'precision', 'budget', 'interrupted', 'failed']),
  isolation: z.looseObject({
    requested: z.enum(['auto', 'cpuset', 'taskset', 'none']),
    kind: z.enum(['cgroup-v1', 'cgroup-v2', 'taskset', 'none']),
    slots: z.array(z.string().nullable()),
    harnessCpus: z.string().nullable(),
    warnings: z.array(z.string()),
  }),
  settings: z.looseObject({
    level: finite,
    threshold: finite,
    resamples: z.number().int(),
    adjustment: z.enum(['holm', 'bh', 'none']),
    seed: z.number().int(),
    baseline: z.string(),
  }),
  results: z.array(
    z.looseObject({
      benchmark: z.string(),
      unit: z.string(),
      biggerIsBetter: z.boolean(),
      baseline: z.string(),
      version: z.string(),
      comparison: comparison.nullable(),
      notComparable: notComparable.nullable().default(null),
      error: z.string().nullable(),
      unmeasured: z.string().nullable().default(null),
      exact: z.object({ base: finite, head: finite }).optional(),
      explain: explain.optional(),
    }),
  ),
  summary: z.object({
    regression: count,
    improvement: count,
    unchanged: count,
    inconclusive: count,
    notComparable: count.default(0),
    error: count,
    unmeasured: count.default(0),
  }),
});
const runSchema = z.object({
  schemaVersion: z.literal(1),
  suite: z.string().min(1).max(100),
  pullRequest: z
    .object({ number: z.number().int().positive(), headSha: z.string().regex(/^[0-9a-f]{40}$/) })
    .nullable(),
  meta: z.object({
    suite: z.string(),
    runner: z.string(),
    durationSeconds: finite,
    versions: z.array(
      z.object({ name: z.string(), commit: z.string().nullable(), source: z.string() }),
    ),
    // The history's trend (publish: history); only sparkline characters, as the run step writes.
    trends: z
      .object({
        label: z.string().regex(/^trend \(last \d+ runs?\)$/),
        byBenchmark: z.record(z.string(), z.string().regex(/^[▁▂▃▄▅▆▇█·]{0,100}$/)),
      })
      .optional(),
  }),
});

/** Reads and checks `duetkit-run.json` and `comparison.json` of a results directory. */
export async function readResults(
  dir: string,
): Promise<{ run: RunRecord; report: ComparisonReport }> {
  const read = async <T>(file: string, schema: z.ZodType<T>): Promise<T> => {
    const where = path.join(dir, file);
    let raw: unknown;
    try {
      raw = JSON.parse(await readFile(where, 'utf8'));
    } catch (error) {
      throw new UserError(
        `cannot read ${where} (${(error as Error).message}); is "results-directory" the downloaded artifact of the run step?`,
      );
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new UserError(
        `${where} is not a duetkit result: ${issue.path.join('.')}: ${issue.message}`,
      );
    }
    return parsed.data;
  };
  return {
    run: await read(RESULT_FILES.run, runSchema as z.ZodType<RunRecord>),
    report: (await read(RESULT_FILES.comparison, reportSchema)) as unknown as ComparisonReport,
  };
}
