import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { ComparisonReport } from '../contracts/comparison.js';
import { UserError } from '../errors.js';
import type { SamplesFile } from '../contracts/samples.js';

/** What a results directory holds for the history: the run's samples and its comparison. */
export interface RunResults {
  dir: string;
  samples: SamplesFile;
  report: ComparisonReport;
  /** The suite from the action's `duetkit-run.json`, when the action wrote the directory. */
  suite: string | null;
  /** samples.json as it is on disk (its hash makes a stable run id outside Actions). */
  samplesText: string;
}

const finite = z.number().refine(Number.isFinite, 'a finite number');
// Only what the history reads is checked; both files come from duetkit itself.
const samplesSchema = z.looseObject({
  schemaVersion: z.literal(1),
  complete: z.boolean(),
  stopReason: z.string(),
  scenario: z.looseObject({ name: z.string() }),
  mode: z.enum(['duet', 'rmit', 'mit', 'mct', 'single']),
  seed: z.number().int(),
  startedAt: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'an ISO 8601 time'),
  finishedAt: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'an ISO 8601 time'),
  machine: z.looseObject({
    cpuModel: z.string(),
    platform: z.string(),
    kernel: z.string(),
    arch: z.string(),
  }),
  isolation: z.looseObject({ kind: z.enum(['cgroup-v1', 'cgroup-v2', 'taskset', 'none']) }),
  versions: z.array(z.looseObject({ name: z.string(), commit: z.string().nullable() })).min(1),
  trials: z.array(
    z.looseObject({
      version: z.number().int().min(0),
      round: z.number().int(),
      warmup: z.boolean(),
      metrics: z.array(
        z.looseObject({
          name: z.string(),
          unit: z.string(),
          biggerIsBetter: z.boolean(),
          values: z.array(finite),
        }),
      ),
    }),
  ),
});
const reportSchema = z.looseObject({
  schemaVersion: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
  scenario: z.string(),
  settings: z.looseObject({ level: finite, threshold: finite, baseline: z.string() }),
  results: z.array(
    z.looseObject({
      benchmark: z.string(),
      version: z.string(),
      unit: z.string(),
      biggerIsBetter: z.boolean(),
      comparison: z.looseObject({ change: finite, verdict: z.string() }).nullable(),
      error: z.string().nullable(),
    }),
  ),
});
const runSchema = z.looseObject({ suite: z.string().min(1).max(100) });

/**
 * Reads `samples.json` and `comparison.json` of a results directory (`duetkit run --out DIR`,
 * or the action's `results-directory`), and the suite from `duetkit-run.json` when present.
 * A missing comparison (the run failed or was interrupted) is an error: such a run is not
 * history.
 */
export async function readRunResults(dir: string): Promise<RunResults> {
  const read = async (file: string, required: boolean): Promise<string | null> => {
    const where = path.join(dir, file);
    try {
      return await readFile(where, 'utf8');
    } catch (error) {
      if (!required && (error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      const hint =
        file === 'comparison.json'
          ? '; a run that failed or was interrupted leaves none, and is not published'
          : '; expected the directory `duetkit run --out DIR` or the action wrote';
      throw new UserError(`cannot read ${where}: ${(error as Error).message}${hint}`);
    }
  };
  const samplesText = (await read('samples.json', true))!;
  const samples = check(
    samplesText,
    path.join(dir, 'samples.json'),
    samplesSchema,
  ) as unknown as SamplesFile;
  const report = check(
    (await read('comparison.json', true))!,
    path.join(dir, 'comparison.json'),
    reportSchema,
  ) as unknown as ComparisonReport;
  const runText = await read('duetkit-run.json', false);
  const suite =
    runText === null
      ? null
      : (check(runText, path.join(dir, 'duetkit-run.json'), runSchema) as { suite: string }).suite;
  return { dir, samples, report, suite, samplesText };
}

function check<T>(text: string, file: string, schema: z.ZodType<T>): T {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new UserError(`${file} is not JSON: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UserError(`${file}: ${issue.path.join('.') || '(top level)'}: ${issue.message}`);
  }
  return parsed.data;
}
