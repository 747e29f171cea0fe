import { z } from 'zod';
import {
  HistoryFormatError,
  HISTORY_SCHEMA_VERSION,
  type EntryBenchmark,
  type HistoryEntry,
} from './schema.js';

/**
 * github-action-benchmark's `data.js`: `window.BENCHMARK_DATA = ` and a JSON object
 * `{lastUpdate, repoUrl, entries: {NAME: [{commit, date, tool, benches: [{name, value,
 * range?, unit, extra?}]}]}}`, one array per benchmark set (its `name` input), oldest first.
 * Imported into entries (nothing of it is lost: the commit object, tool, range and extra
 * are kept) and exported back from them.
 */
export const GAB_PREFIX = 'window.BENCHMARK_DATA = ';

/** Every tool github-action-benchmark supports, and whether bigger is better for it. */
export const GAB_TOOLS: Record<string, boolean> = {
  cargo: false,
  go: false,
  benchmarkjs: true,
  benchmarkluau: false,
  pytest: true,
  googlecpp: false,
  catch2: false,
  julia: false,
  jmh: false,
  benchmarkdotnet: false,
  customBiggerIsBetter: true,
  customSmallerIsBetter: false,
};

const bench = z.looseObject({
  name: z.string().min(1),
  value: z.number().refine(Number.isFinite, 'a finite number'),
  range: z.union([z.string(), z.number()]).optional(),
  unit: z.string(),
  extra: z.string().optional(),
});
const gabEntry = z.looseObject({
  commit: z.looseObject({
    id: z.string().min(1),
    message: z.string().optional(),
    timestamp: z.string().optional(),
    url: z.string().optional(),
  }),
  date: z.number().refine(Number.isFinite, 'a finite number'),
  tool: z.string().refine((t) => t in GAB_TOOLS, `one of ${Object.keys(GAB_TOOLS).join(', ')}`),
  benches: z.array(bench),
});
const dataSchema = z.looseObject({
  lastUpdate: z.number().optional(),
  repoUrl: z.string().optional(),
  entries: z.record(z.string(), z.array(gabEntry)),
});

export type GabData = z.infer<typeof dataSchema>;
export type GabEntry = z.infer<typeof gabEntry>;
type GabBench = z.infer<typeof bench>;

/** Parses a data.js (or the same JSON without the prefix); errors name the file and field. */
export function parseGabData(text: string, file: string): GabData {
  let body = text.trim();
  const prefix = /^window\.BENCHMARK_DATA\s*=\s*/.exec(body);
  if (prefix !== null) body = body.slice(prefix[0].length).replace(/;\s*$/, '');
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch (error) {
    throw new HistoryFormatError(
      file,
      '',
      `not a github-action-benchmark data.js (${(error as Error).message})`,
    );
  }
  const parsed = dataSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new HistoryFormatError(file, issue.path.join('.'), issue.message);
  }
  // The input as it was (zod would put the fields it knows first): an export reproduces it.
  return raw as GabData;
}

/**
 * One data.js entry as a history entry of `suite`. Its run id is made of the commit and the
 * date, so importing the same file twice adds nothing. `prefix` is put before each
 * benchmark's name when several sets go into one suite.
 */
export function entryFromGab(
  name: string,
  e: GabEntry,
  suite: string,
  repoUrl: string | undefined,
  prefix = '',
): HistoryEntry {
  const time = new Date(e.date).toISOString();
  const c = e.commit as GabEntry['commit'] & { author?: { name?: string; email?: string } };
  const hex = /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(c.id);
  const stamp = c.timestamp === undefined ? NaN : Date.parse(c.timestamp);
  return {
    schemaVersion: HISTORY_SCHEMA_VERSION,
    suite,
    runId: `gab-${c.id.slice(0, 12)}-${e.date}`,
    recordedAt: time,
    run: {
      startedAt: time,
      finishedAt: time,
      event: 'import',
      workflow: null,
      githubRunId: null,
      runAttempt: null,
      url: null,
      ref: null,
      runner: null,
      mode: null,
      scenarioHash: null,
      seed: null,
      complete: true,
      level: null,
      threshold: null,
    },
    infrastructure: {
      runnerImage: null,
      runnerImageVersion: null,
      os: null,
      cpuModel: null,
      machine: null,
      isolation: null,
    },
    commit: hex
      ? {
          id: c.id,
          message: (c.message ?? '').split('\n')[0]!.slice(0, 1000),
          author:
            c.author?.name === undefined
              ? null
              : { name: c.author.name, email: c.author.email ?? '' },
          timestamp: Number.isNaN(stamp) ? null : new Date(stamp).toISOString(),
          url: c.url ?? null,
        }
      : null,
    version: null,
    benchmarks: e.benches.map((b) => benchmarkFromGab(b, GAB_TOOLS[e.tool]!, prefix)),
    imported: {
      from: 'github-action-benchmark',
      name,
      tool: e.tool,
      date: e.date,
      commit: e.commit,
      ...(repoUrl === undefined ? {} : { repoUrl }),
    },
  };
}

function benchmarkFromGab(b: GabBench, biggerIsBetter: boolean, prefix: string): EntryBenchmark {
  return {
    name: `${prefix}${b.name}`,
    unit: b.unit,
    biggerIsBetter,
    valueKind: 'summary',
    // The tools report a mean (or ops/s from one), never the raw samples.
    statistic: 'mean',
    value: b.value,
    ci: null,
    n: 1,
    cv: null,
    comparison: null,
    error: null,
    ...(b.range === undefined ? {} : { range: b.range }),
    ...(b.extra === undefined ? {} : { extra: b.extra }),
  };
}

/**
 * A data.js entry from a history entry: an imported one exactly as it was; a duetkit run as a
 * `customSmallerIsBetter` / `customBiggerIsBetter` run whose range is the interval's
 * half-width and whose extra says n, CV and the change with its interval and verdict.
 * Benchmarks without a value (failed) cannot be represented and are left out.
 */
export function gabEntryOf(entry: HistoryEntry): { gab: GabEntry; skipped: string[] } {
  const skipped: string[] = [];
  const benches: GabBench[] = [];
  for (const b of entry.benchmarks) {
    if (b.value === null) {
      skipped.push(
        `${entry.suite} / ${b.name} in run ${entry.runId}: no value (${b.error ?? b.unmeasured ?? 'failed'})`,
      );
      continue;
    }
    const out: GabBench = { name: b.name, value: b.value, unit: b.unit };
    const range =
      b.range ??
      (b.ci === null ? undefined : `± ${Number(((b.ci.upper - b.ci.lower) / 2).toPrecision(3))}`);
    const extra = b.extra ?? (entry.imported === undefined ? extraOf(b) : undefined);
    benches.push({
      name: out.name,
      value: out.value,
      ...(range === undefined ? {} : { range }),
      unit: out.unit,
      ...(extra === undefined ? {} : { extra }),
    });
  }
  if (entry.imported !== undefined) {
    return {
      gab: {
        commit: entry.imported.commit as GabEntry['commit'],
        date: entry.imported.date,
        tool: entry.imported.tool,
        benches,
      },
      skipped,
    };
  }
  const c = entry.commit;
  const person = c?.author == null ? {} : { email: c.author.email, name: c.author.name };
  return {
    gab: {
      commit: {
        author: person,
        committer: person,
        id: c?.id ?? '',
        message: c?.message ?? '',
        ...(c?.timestamp == null ? {} : { timestamp: c.timestamp }),
        url: c?.url ?? '',
      },
      date: Date.parse(entry.run.startedAt),
      tool:
        entry.benchmarks.length > 0 && entry.benchmarks.every((b) => b.biggerIsBetter)
          ? 'customBiggerIsBetter'
          : 'customSmallerIsBetter',
      benches,
    },
    skipped,
  };
}

function extraOf(b: EntryBenchmark): string {
  const lines = [
    `${b.statistic} of n=${b.n}${b.cv === null ? '' : `, CV ${(b.cv * 100).toFixed(1)}%`}`,
  ];
  const c = b.comparison;
  if (c !== null) {
    const pct = (x: number): string => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(2)}%`;
    lines.push(
      `change ${pct(c.change)} [${pct(c.ci.lower)}, ${pct(c.ci.upper)}] ${+(c.ci.level * 100).toFixed(3)}% CI: ${c.verdict}${c.baseCommit === null ? '' : ` vs ${c.baseCommit.slice(0, 7)}`}`,
    );
  }
  return lines.join('\n');
}

/** The data.js text, as github-action-benchmark writes it. */
export function renderGabData(data: {
  lastUpdate: number;
  repoUrl: string;
  entries: Record<string, GabEntry[]>;
}): string {
  return GAB_PREFIX + JSON.stringify(data, null, 2);
}
