import { z } from 'zod';
import { FileFormatError } from '../errors.js';

/**
 * Version of a history entry (one immutable JSON file per run on the history branch, see
 * docs/history.md). Bump on any incompatible change; readers refuse versions they do not know
 * by name. Fields may be added without a bump: every object below accepts unknown keys, so an
 * older reader keeps reading what a newer writer adds.
 */
export const HISTORY_SCHEMA_VERSION = 1;

const finite = z.number().refine(Number.isFinite, 'a finite number');
const isoTime = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'an ISO 8601 time');
const text = (max: number) => z.string().max(max);
const nullableText = (max: number) => text(max).nullable();
const verdicts = ['regression', 'improvement', 'unchanged', 'inconclusive'] as const;

/** An interval of a value or of a relative change. */
const interval = z.looseObject({
  level: z.number().gt(0).lt(1),
  lower: finite,
  upper: finite,
  /**
   * How it was obtained: `order-statistic` (the distribution-free interval of a median),
   * `normal` (mean ± z·SE), `bca` or `percentile` (bootstrap), or `tool` (as the benchmark
   * tool reported it).
   */
  method: z.string().max(40).optional(),
});

/** When the run compared head against a base: the change and what decided its verdict. */
const comparison = z.looseObject({
  /** Name of the base version in the run (the scenario's baseline). */
  baseline: text(200),
  /** Commit the base version measured; null outside a git repository. */
  baseCommit: nullableText(64),
  /** The base's statistic, in the benchmark's unit. */
  baseValue: finite.nullable(),
  /** Relative change head/base − 1 of the statistic. */
  change: finite,
  ci: interval,
  /** Rank-test p-value adjusted across the run's benchmarks (Holm or BH); null if none. */
  pValueAdjusted: z.number().min(0).max(1).nullable(),
  verdict: z.enum(verdicts),
  /** The practical threshold the verdict used, as a fraction. */
  threshold: finite,
});

/** One benchmark of one run: the head's statistic and, when compared, its change. */
const benchmark = z.looseObject({
  name: text(1000).min(1),
  unit: text(100),
  biggerIsBetter: z.boolean(),
  /** `samples`: from every measurement; `summary`: the tool reported one aggregate per run. */
  valueKind: z.enum(['samples', 'summary']).nullable(),
  statistic: z.enum(['median', 'mean', 'gmean']),
  /** The head's statistic; null when the benchmark failed (`error`). */
  value: finite.nullable(),
  /** Interval of the head's statistic; null when it has too few values for one. */
  ci: interval.nullable(),
  /** Values (pairs when paired) behind `value`. */
  n: z.number().int().min(0),
  /** Coefficient of variation of those values; null with fewer than two. */
  cv: finite.nullable(),
  comparison: comparison.nullable(),
  /** Why there is no change although both sides were measured (e.g. a base of 0). */
  notComparable: nullableText(2000).optional(),
  /**
   * Why the run's time budget left it with too few values to compare (then `value` is null
   * and there is no error): absent when it was measured.
   */
  unmeasured: nullableText(2000).optional(),
  /** The benchmark failed or produced no samples: an error, never a pass. */
  error: nullableText(4000),
  /** From imports (github-action-benchmark): the tool's own text, kept for a faithful export. */
  range: z.union([text(200), finite]).optional(),
  extra: text(4000).optional(),
});

/** Who made a commit, as git records it. */
const person = z.looseObject({ name: text(300), email: text(300) });

/** The commit the run measured (the head), read from git so `schedule` runs have it too. */
const commit = z.looseObject({
  id: z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/, 'a full commit id (40 or 64 hex digits)'),
  /** First line of the message. */
  message: text(1000),
  author: person.nullable(),
  timestamp: isoTime.nullable(),
  url: nullableText(1000),
});

/** The cluster a run used, when it ran on Kubernetes (filled by the cluster driver). */
const cluster = z.looseObject({
  provider: nullableText(100),
  name: nullableText(300),
  nodeName: nullableText(300),
  instanceId: nullableText(300),
  instanceType: nullableText(100),
});

/**
 * Where the run measured: what nightly variability analyses group by. `machine` and
 * `isolation` are as `samples.json` records them (src/contracts/machine.ts,
 * src/contracts/isolation.ts).
 */
const infrastructure = z.looseObject({
  /** The GitHub runner image (`ImageOS`, e.g. `ubuntu24`) and its version (`ImageVersion`). */
  runnerImage: nullableText(200),
  runnerImageVersion: nullableText(200),
  /** e.g. `linux 6.8.0-1017-azure x64`. */
  os: nullableText(300),
  cpuModel: nullableText(300),
  machine: z.looseObject({}).nullable(),
  isolation: z
    .looseObject({
      kind: z.enum(['cgroup-v1', 'cgroup-v2', 'taskset', 'none']),
    })
    .nullable(),
  cluster: cluster.optional(),
});

/** The run: which workflow, event and settings produced the entry. */
const run = z.looseObject({
  startedAt: isoTime,
  finishedAt: isoTime,
  /** `push`, `schedule`, `workflow_dispatch`, `cli`, `import`... */
  event: nullableText(100),
  workflow: nullableText(300),
  /** GitHub's workflow run id and attempt (the entry's `runId` is made of them in Actions). */
  githubRunId: nullableText(100),
  runAttempt: z.number().int().min(1).nullable(),
  /** Link to the workflow run. */
  url: nullableText(1000),
  /** The git ref the workflow ran for (`refs/heads/main`). */
  ref: nullableText(500),
  /** The runner's label (name, OS, image), or the machine in one line outside Actions. */
  runner: nullableText(1000),
  /** duet, rmit, mit, mct or single; null for imported entries. */
  mode: nullableText(20),
  /** sha256 of the scenario as it ran (canonical JSON), to tell runs of different setups. */
  scenarioHash: nullableText(64),
  seed: z.number().int().nullable(),
  /** False when the run was interrupted or failed; its values are those gathered until then. */
  complete: z.boolean(),
  level: z.number().gt(0).lt(1).nullable(),
  threshold: finite.nullable(),
});

/**
 * Reserved for the nightly A/A figures (issue 14, src/variability/): an optional object whose
 * fields that issue defines. Stored and passed through as it is; no reader here depends on it.
 */
const aa = z.looseObject({});

/** Where an imported entry came from, kept so an export reproduces the original. */
const imported = z.looseObject({
  from: z.literal('github-action-benchmark'),
  /** The data.js entry name (github-action-benchmark's `name` input). */
  name: text(300),
  tool: text(100),
  /** Milliseconds since the epoch, as data.js has it. */
  date: z.number(),
  /** The commit object as data.js had it (author, committer, url, ...). */
  commit: z.looseObject({}),
  repoUrl: text(1000).optional(),
});

export const entrySchema = z.looseObject({
  schemaVersion: z.literal(HISTORY_SCHEMA_VERSION),
  suite: text(100).min(1),
  /** Unique within the suite: publishing the same run id again is a no-op. */
  runId: text(200).min(1),
  /** When the entry was written. */
  recordedAt: isoTime,
  run,
  infrastructure,
  commit: commit.nullable(),
  /** The version of the scenario whose values are recorded (the head). */
  version: nullableText(200),
  benchmarks: z.array(benchmark),
  aa: aa.optional(),
  imported: imported.optional(),
});

export type HistoryEntry = z.infer<typeof entrySchema>;
export type EntryBenchmark = HistoryEntry['benchmarks'][number];
export type EntryComparison = NonNullable<EntryBenchmark['comparison']>;
export type EntryCommit = NonNullable<HistoryEntry['commit']>;
export type EntryRun = HistoryEntry['run'];
export type Infrastructure = HistoryEntry['infrastructure'];
export type ClusterInfo = NonNullable<Infrastructure['cluster']>;
export type ValueInterval = z.infer<typeof interval>;
export type EntryVerdict = (typeof verdicts)[number];

/** An entry file that cannot be read: names the file, the field and what is wrong. */
export class HistoryFormatError extends FileFormatError {}

/**
 * Parses and validates one entry file's text. Throws a `HistoryFormatError` naming `file`,
 * the first bad field (dotted path, e.g. `benchmarks.3.value`) and the problem.
 */
export function parseEntry(textOfFile: string, file: string): HistoryEntry {
  let raw: unknown;
  try {
    raw = JSON.parse(textOfFile);
  } catch (error) {
    throw new HistoryFormatError(file, '', `not JSON (${(error as Error).message})`);
  }
  const version = (raw as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (typeof version === 'number' && version > HISTORY_SCHEMA_VERSION) {
    throw new HistoryFormatError(
      file,
      'schemaVersion',
      `${version} was written by a newer duetkit; this one reads version ${HISTORY_SCHEMA_VERSION}`,
    );
  }
  const parsed = entrySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.');
    const got = valueAt(raw, issue.path);
    const shown = got === undefined ? 'missing' : `got ${JSON.stringify(got)?.slice(0, 80)}`;
    throw new HistoryFormatError(file, field, `${issue.message} (${shown})`);
  }
  return parsed.data;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at: unknown = value;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

/** Entries oldest first: by the run's start, then by run id (a stable order for ties). */
export function compareEntries(a: HistoryEntry, b: HistoryEntry): number {
  const t = Date.parse(a.run.startedAt) - Date.parse(b.run.startedAt);
  if (t !== 0) return t;
  return a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0;
}
