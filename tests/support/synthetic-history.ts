import { createHash } from 'node:crypto';
import { entryPath } from '../../src/history/layout.js';
import type { StoredEntry } from '../../src/history/read.js';
import { HISTORY_SCHEMA_VERSION, type HistoryEntry } from '../../src/history/schema.js';

/** A small seeded generator (mulberry32), so a synthetic history is the same every time. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VERDICT_OF = (
  change: number,
  half: number,
  threshold: number,
): 'regression' | 'improvement' | 'unchanged' | 'inconclusive' => {
  if (change - half > threshold) return 'regression';
  if (change + half < -threshold) return 'improvement';
  if (Math.abs(change) + half < threshold) return 'unchanged';
  return 'inconclusive';
};

/**
 * A made-up history of `runs` runs of `benchmarks` benchmarks, one run a day from `start`:
 * values drift a little, and now and then one benchmark steps by 6–20% (a run that compares
 * against the previous commit calls it). For the dashboard's tests and its scale benchmark;
 * the entries are valid against the schema.
 */
export function syntheticHistory(options: {
  suite?: string;
  benchmarks: number;
  runs: number;
  seed?: number;
  start?: string;
  /** Milliseconds between runs. Default one day. */
  every?: number;
  /** Chance that a benchmark steps by 6–20% in a run. Default 0.004. */
  stepRate?: number;
  /** Steps to put in for sure: benchmark `benchmark` changes by `change` at run `run`. */
  steps?: { benchmark: number; run: number; change: number }[];
}): StoredEntry[] {
  const suite = options.suite ?? 'synthetic';
  const random = rng(options.seed ?? 1);
  const start = Date.parse(options.start ?? '2024-01-01T06:00:00Z');
  const every = options.every ?? 24 * 3600 * 1000;
  const names = Array.from({ length: options.benchmarks }, (_, i) => {
    const group = ['parse', 'render', 'sort', 'hash', 'compress', 'query', 'encode', 'route'][
      i % 8
    ]!;
    return `${group}/${['small', 'medium', 'large'][i % 3]}/case-${String(i).padStart(4, '0')}`;
  });
  const level = names.map(() => 10 ** (1 + random() * 4));
  const out: StoredEntry[] = [];
  for (let r = 0; r < options.runs; r++) {
    const startedAt = new Date(start + r * every).toISOString();
    const sha = (n: number): string =>
      createHash('sha1').update(`${suite} commit ${n}`).digest('hex');
    const commit = sha(r + 1);
    const base = sha(r);
    const runId = `${1000000 + r}-1`;
    const benchmarks = names.map((name, b) => {
      const before = level[b]!;
      let step = 0;
      if (random() < (options.stepRate ?? 0.004))
        step = (random() < 0.5 ? -1 : 1) * (0.06 + random() * 0.14);
      const forced = options.steps?.find((s) => s.benchmark === b && s.run === r);
      if (forced !== undefined) step = forced.change;
      level[b] = before * (1 + step) * (1 + (random() - 0.5) * 0.004);
      const value = level[b]! * (1 + (random() - 0.5) * 0.01);
      const half = 0.004 + random() * 0.01;
      const change = value / before - 1;
      return {
        name,
        unit: 'ns',
        biggerIsBetter: false,
        valueKind: 'samples' as const,
        statistic: 'median' as const,
        value,
        ci: {
          level: 0.99,
          lower: value * (1 - half),
          upper: value * (1 + half),
          method: 'order-statistic',
        },
        n: 30,
        cv: 0.01 + random() * 0.03,
        comparison:
          r === 0
            ? null
            : {
                baseline: 'base',
                baseCommit: base,
                baseValue: before,
                change,
                ci: { level: 0.99, lower: change - half, upper: change + half, method: 'bca' },
                pValueAdjusted: Math.abs(change) > 0.05 ? 1e-6 : 0.5,
                verdict: VERDICT_OF(change, half, 0.05),
                threshold: 0.05,
              },
        error: null,
      };
    });
    const entry: HistoryEntry = {
      schemaVersion: HISTORY_SCHEMA_VERSION,
      suite,
      runId,
      recordedAt: startedAt,
      run: {
        startedAt,
        finishedAt: new Date(start + r * every + 300_000).toISOString(),
        event: r % 7 === 6 ? 'schedule' : 'push',
        workflow: 'benchmarks',
        githubRunId: String(1000000 + r),
        runAttempt: 1,
        url: `https://github.com/octo/bench/actions/runs/${1000000 + r}`,
        ref: 'refs/heads/main',
        runner: 'GitHub Actions runner "GitHub Actions 2" (Linux X64 ubuntu24)',
        mode: 'duet',
        scenarioHash: 'f'.repeat(64),
        seed: r,
        complete: true,
        level: 0.99,
        threshold: 0.05,
      },
      infrastructure: {
        runnerImage: 'ubuntu24',
        runnerImageVersion: '20260101.1',
        os: 'linux 6.8.0 x64',
        cpuModel: 'AMD EPYC 7763 64-Core Processor',
        machine: null,
        isolation: { kind: 'cgroup-v2' },
      },
      commit: {
        id: commit,
        message: `Change number ${r + 1} to the code`,
        author: { name: 'Ada Lovelace', email: 'ada@example.com' },
        timestamp: startedAt,
        url: `https://github.com/octo/bench/commit/${commit}`,
      },
      version: 'head',
      benchmarks,
    };
    out.push({ path: entryPath(suite, runId, startedAt), entry });
  }
  return out;
}
