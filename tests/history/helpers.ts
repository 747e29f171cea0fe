import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HISTORY_SCHEMA_VERSION, type HistoryEntry } from '../../src/history/schema.js';
import { runCli } from '../helpers/cli.js';

/** A temporary directory removed by `cleanup()`. */
export function tempDir(prefix = 'duetkit-history-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Ada',
      GIT_AUTHOR_EMAIL: 'ada@example.com',
      GIT_COMMITTER_NAME: 'Ada',
      GIT_COMMITTER_EMAIL: 'ada@example.com',
    },
  }).trim();
}

/**
 * A new bare repository (the "remote"), as a path. Like GitHub it serves partial clones
 * (`uploadpack.allowFilter`), unless `partialClone` is false (then every fetch brings every
 * file's contents).
 */
export function bareRemote(parent: string, name = 'remote.git', partialClone = true): string {
  const dir = path.join(parent, name);
  execFileSync('git', ['init', '-q', '--bare', dir]);
  if (partialClone) execFileSync('git', ['config', 'uploadpack.allowFilter', 'true'], { cwd: dir });
  return dir;
}

/**
 * Commits `files` (path → content, null deletes) onto `branch` of `remote` with plain git
 * (a clone, a commit, a push), independently of the code under test.
 */
export function pushFiles(
  remote: string,
  branch: string,
  files: Record<string, string | null>,
  message = 'test files',
): void {
  const work = mkdtempSync(path.join(os.tmpdir(), 'duetkit-push-'));
  try {
    const exists = git(work, 'ls-remote', remote, `refs/heads/${branch}`) !== '';
    if (exists) git(work, 'clone', '-q', '--branch', branch, remote, '.');
    else {
      git(work, 'init', '-q', '-b', branch);
      git(work, 'remote', 'add', 'origin', remote);
    }
    for (const [file, content] of Object.entries(files)) {
      const target = path.join(work, file);
      if (content === null) rmSync(target, { force: true });
      else {
        mkdirSync(path.dirname(target), { recursive: true });
        writeFileSync(target, content);
      }
    }
    git(work, 'add', '-A');
    git(work, 'commit', '-q', '-m', message);
    git(work, 'push', '-q', 'origin', `HEAD:refs/heads/${branch}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Files of `branch` in `remote` (path → content), read with plain git. */
export function branchFiles(remote: string, branch: string, under = ''): Map<string, string> {
  const files = new Map<string, string>();
  const listed = git(
    remote,
    'ls-tree',
    '-r',
    '--name-only',
    branch,
    ...(under ? ['--', under] : []),
  );
  for (const file of listed.split('\n').filter(Boolean)) {
    files.set(file, git(remote, 'show', `${branch}:${file}`));
  }
  return files;
}

const HEX = '0123456789abcdef';
/** A 40-digit commit id made from a number. */
export function commitId(n: number): string {
  return (n.toString(16).padStart(8, '0') + HEX.repeat(3)).slice(0, 40);
}

/** A valid entry; `values` gives benchmarks and their values. */
export function makeEntry(
  options: {
    suite?: string;
    runId?: string;
    startedAt?: string;
    values?: Record<string, number>;
    commit?: number;
    change?: number;
    verdict?: 'regression' | 'improvement' | 'unchanged' | 'inconclusive';
  } = {},
): HistoryEntry {
  const startedAt = options.startedAt ?? '2026-03-01T12:00:00.000Z';
  const values = options.values ?? { parse: 100, render: 50 };
  return {
    schemaVersion: HISTORY_SCHEMA_VERSION,
    suite: options.suite ?? 'micro',
    runId: options.runId ?? 'run-1',
    recordedAt: startedAt,
    run: {
      startedAt,
      finishedAt: startedAt,
      event: 'push',
      workflow: 'bench',
      githubRunId: null,
      runAttempt: null,
      url: null,
      ref: 'refs/heads/main',
      runner: 'test machine',
      mode: 'duet',
      scenarioHash: null,
      seed: 1,
      complete: true,
      level: 0.99,
      threshold: 0.05,
    },
    infrastructure: {
      runnerImage: null,
      runnerImageVersion: null,
      os: 'linux',
      cpuModel: 'Test CPU',
      machine: null,
      isolation: { kind: 'none' },
    },
    commit: {
      id: commitId(options.commit ?? 1),
      message: 'a commit',
      author: { name: 'Ada', email: 'ada@example.com' },
      timestamp: startedAt,
      url: null,
    },
    version: 'head',
    benchmarks: Object.entries(values).map(([name, value]) => ({
      name,
      unit: 'ms',
      biggerIsBetter: false,
      valueKind: 'samples' as const,
      statistic: 'median' as const,
      value,
      ci: { level: 0.99, lower: value * 0.99, upper: value * 1.01, method: 'order-statistic' },
      n: 30,
      cv: 0.02,
      comparison:
        options.change === undefined
          ? null
          : {
              baseline: 'base',
              baseCommit: commitId(0),
              baseValue: value / (1 + options.change),
              change: options.change,
              ci: { level: 0.99, lower: options.change - 0.01, upper: options.change + 0.01 },
              pValueAdjusted: 0.001,
              verdict: options.verdict ?? 'unchanged',
              threshold: 0.05,
            },
      error: null,
    })),
  };
}

// Prints the benchmark's value: 100 ms (base) or 112 ms (head), ±0.5% jitter per process.
const bench = (ms: number): string =>
  `awk -v s=$$ 'BEGIN { srand(s); printf "{\\"name\\":\\"parse\\",\\"value\\":%.4f,\\"unit\\":\\"ms\\"}\\n", ${ms} * (1 + (rand() - 0.5) / 100) }'\n`;

const SCENARIO = `name: micro
versions:
  - {name: base, ref: HEAD~1}
  - {name: head, ref: HEAD}
workload: {command: sh bench.sh, format: jsonl}
iterations: 8
warmup: 1
isolation: none
seed: 3
analysis: {resamples: 1000}
`;

/**
 * A real repository in `parent`/repo with two commits (the head's `parse` 12% slower than the
 * base's) and the results of a real `duetkit run` of them in repo/out.
 */
export async function makeRunRepo(parent: string): Promise<string> {
  const repo = path.join(parent, 'repo');
  mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  writeFileSync(path.join(repo, 'bench.sh'), bench(100));
  writeFileSync(path.join(repo, 'micro.yml'), SCENARIO);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'base version');
  writeFileSync(path.join(repo, 'bench.sh'), bench(112));
  git(repo, 'commit', '-q', '-am', 'Make parse slower\n\nA body that is not kept.');
  const run = await runCli(['run', 'micro.yml', '--out', 'out'], repo);
  if (run.code !== 0) throw new Error(`duetkit run failed: ${run.err}`);
  return repo;
}
