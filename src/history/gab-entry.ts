import { GAB_TOOLS, type GabBench, type GabEntry } from '../formats/gab.js';
import { HISTORY_SCHEMA_VERSION, type EntryBenchmark, type HistoryEntry } from './schema.js';

/**
 * A github-action-benchmark data.js entry as a history entry and back (the format itself:
 * `src/formats/gab.ts`). Nothing of an imported entry is lost: the commit object, tool, range
 * and extra are kept, so an export reproduces it.
 */

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
