import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './bundle-action.js';

/** A benchmark whose `parse` takes FACTOR × 100 ms (±1% jitter); its second name is hostile. */
export const HOSTILE_NAME = 'render <b>@everyone</b> | `x` [y](http://e.test) #1';
const bench = (factor: number): string => `// factor ${factor}
const jitter = () => 1 + (Math.random() - 0.5) * 0.02;
console.log(JSON.stringify({ name: 'parse', value: 100 * ${factor} * jitter(), unit: 'ms' }));
console.log(JSON.stringify({ name: ${JSON.stringify(HOSTILE_NAME)}, value: 50 * jitter(), unit: 'ms' }));
`;

export const SCENARIO = `name: micro
versions:
  - {name: base, ref: main}
  - {name: head, ref: HEAD}
workload: {command: node bench.js, format: jsonl}
iterations: 12
warmup: 1
isolation: none
seed: 7
analysis: {resamples: 2000, threshold: 0.05}
`;

export interface ActionRepo {
  dir: string;
  /** Where main and the branches started. */
  root: string;
  /** main's tip: one commit after `root`, so the merge base differs from it. */
  mainTip: string;
  /** A branch that changes nothing measurable. */
  same: string;
  /** A branch whose `parse` is 15% slower. */
  slow: string;
}

/**
 * A real git repository holding the action (action.yml and a fresh bundle in dist/), a
 * scenario and a benchmark, with main and two PR branches: `same` and `slow`.
 */
export function makeActionRepo(bundleDir: string, files: Record<string, string> = {}): ActionRepo {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'duetkit-action-repo-'));
  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
  const write = (name: string, text: string): void => {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  };
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'test@example.com');
  git('config', 'user.name', 'test');
  git('remote', 'add', 'origin', 'https://github.com/octo/bench.git');
  cpSync(path.join(ROOT, 'action.yml'), path.join(dir, 'action.yml'));
  cpSync(bundleDir, path.join(dir, 'dist'), { recursive: true });
  write('bench.js', bench(1));
  write('bench.yml', SCENARIO);
  for (const [name, text] of Object.entries(files)) write(name, text);
  git('add', '-A');
  git('commit', '-q', '-m', 'root');
  const root = git('rev-parse', 'HEAD');
  const branch = (name: string, factor: number): string => {
    git('checkout', '-q', '-b', name, root);
    write('bench.js', bench(factor));
    write(`${name}.txt`, name);
    git('add', '-A');
    git('commit', '-q', '-m', name);
    return git('rev-parse', 'HEAD');
  };
  const same = branch('same', 1);
  const slow = branch('slow', 1.15);
  git('checkout', '-q', 'main');
  write('NOTES.md', 'landed on main after the branches started\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'main moves on');
  return { dir, root, mainTip: git('rev-parse', 'HEAD'), same, slow };
}

/** A `pull_request` payload for PR #`number` from `headSha`, optionally from a fork. */
export function pullRequestEvent(
  repo: ActionRepo,
  headSha: string,
  options: { number?: number; fork?: boolean } = {},
): Record<string, unknown> {
  const number = options.number ?? 42;
  const baseRepo = { full_name: 'octo/bench', name: 'bench', owner: { login: 'octo' } };
  const headRepo = options.fork
    ? { full_name: 'mallory/bench', name: 'bench', owner: { login: 'mallory' } }
    : baseRepo;
  return {
    action: 'synchronize',
    number,
    pull_request: {
      number,
      head: { sha: headSha, ref: 'feature', repo: headRepo },
      base: { sha: repo.mainTip, ref: 'main', repo: baseRepo },
    },
    repository: baseRepo,
  };
}
