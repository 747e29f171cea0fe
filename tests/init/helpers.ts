import { execFile, execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ComparisonReport } from '../../src/contracts/comparison.js';
import { main } from '../../src/cli/main.js';
import { fakeContext } from '../helpers/cli.js';
import { requireTool as requireActionTool } from '../support/act.js';

/**
 * Sample repositories for `duetkit init`: real programs (tests/programs/<lang>) copied into a
 * fresh git repository with two commits, the second one slower, so the scenario init writes
 * (HEAD~1 against HEAD) has a regression to find when it runs for real.
 */
export const REPO = process.cwd();
export const PROGRAMS = path.join(REPO, 'tests', 'programs');

/** A file's text, or `{ from }`: a file (or directory) copied from the project. */
export type SampleFile = string | { from: string };

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, stdio: 'pipe', encoding: 'utf8' });
}

/** A temporary directory holding `files` (not a repository). */
export async function makeDir(files: Record<string, SampleFile>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'duetkit-init-'));
  await writeFiles(dir, files);
  return dir;
}

async function writeFiles(dir: string, files: Record<string, SampleFile>): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, name);
    await mkdir(path.dirname(file), { recursive: true });
    if (typeof content === 'string') await writeFile(file, content);
    else await cp(path.join(REPO, content.from), file, { recursive: true });
  }
}

/**
 * A git repository with `base` committed, then `head` (files changed or added on top of it)
 * committed: HEAD~1 and HEAD exist, as on a branch with history.
 */
export async function makeRepo(
  base: Record<string, SampleFile>,
  head: Record<string, SampleFile> = {},
): Promise<string> {
  const dir = await makeDir(base);
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.email', 'test@example.com');
  git(dir, 'config', 'user.name', 'test');
  git(dir, 'config', 'commit.gpgsign', 'false');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'base');
  await writeFiles(dir, head);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '--allow-empty', '-m', 'head');
  return dir;
}

/** A file of the project with `from` replaced by `to` (for the slower second commit). */
export async function edited(file: string, from: string | RegExp, to: string): Promise<string> {
  const text = await readFile(path.join(REPO, file), 'utf8');
  const changed = text.replace(from, to);
  if (changed === text) throw new Error(`${file}: nothing to replace (${String(from)})`);
  return changed;
}

export function removeDir(dir: string | undefined): Promise<void> {
  return dir === undefined ? Promise.resolve() : rm(dir, { recursive: true, force: true });
}

/** Runs the CLI in-process in `cwd`; returns the exit code and what it printed. */
export async function cli(
  argv: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number; out: string; err: string }> {
  const ctx = fakeContext(cwd, env);
  const code = await main(argv, ctx);
  return { code, out: ctx.out, err: ctx.err };
}

/** The real `duetkit` command (from source), run in `cwd` with `env`: exit code and output. */
export function duetkit(
  argv: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number | null; out: string; err: string }> {
  const tsx = path.join(REPO, 'node_modules', '.bin', 'tsx');
  return new Promise((resolve, reject) => {
    execFile(
      tsx,
      [path.join(REPO, 'src', 'cli', 'bin.ts'), ...argv],
      { cwd, env, maxBuffer: 64 * 1024 * 1024 },
      (error, out, err) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        if (code === null) reject(error ?? new Error('no exit code'));
        else resolve({ code, out, err });
      },
    );
  });
}

/**
 * Runs the scenario init wrote with `duetkit run`, as a user would (a process of its own, with
 * `env`), and returns the comparison it wrote. Fails with everything printed when the run did
 * not succeed. The scenario and the report are kept under .duetkit/init-e2e/<name>/.
 */
export async function runWritten(
  name: string,
  repo: string,
  scenario: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ report: ComparisonReport; out: string; verdict(benchmark: string): string }> {
  const out = path.join(repo, '.duetkit', 'latest');
  await profileOnce(path.join(repo, scenario));
  const result = await duetkit(['run', scenario, '--out', out, '--seed', '7'], repo, env);
  const kept = path.join(REPO, '.duetkit', 'init-e2e', name);
  await mkdir(kept, { recursive: true });
  await cp(path.join(repo, scenario), path.join(kept, 'scenario.yml'));
  await writeFile(path.join(kept, 'report.txt'), `${result.err}\n${result.out}`);
  for (const file of ['samples.json', 'comparison.json']) {
    await cp(path.join(out, file), path.join(kept, file)).catch(() => undefined);
  }
  if (result.code !== 0) {
    throw new Error(`duetkit run exited ${result.code}:\n${result.err}\n${result.out}`);
  }
  const report = JSON.parse(
    await readFile(path.join(out, 'comparison.json'), 'utf8'),
  ) as ComparisonReport;
  return {
    report,
    out: result.out,
    verdict(benchmark) {
      const found = report.results.find((r) => r.benchmark === benchmark && r.version === 'head');
      if (found === undefined) {
        const names = report.results.map((r) => r.benchmark).join(', ');
        throw new Error(`no result for "${benchmark}"; the report has: ${names}\n${result.out}`);
      }
      return found.comparison?.verdict ?? `error: ${found.error}`;
    },
  };
}

/**
 * The profile stage of the written scenario (after the verdict, on by default for the
 * benchmarks called changed) kept, but with one profiled run of each side per benchmark, not
 * 8: each format's route to a profile (one benchmark run alone under perf, py-spy or pprof)
 * is still taken end to end, and the verdicts these tests check come before it. Eight runs
 * took 24-38 s of each test's time (a fifth of the budget), and no test here reads a profile:
 * the profiles themselves are tested in tests/profile/.
 */
async function profileOnce(scenario: string): Promise<void> {
  const text = await readFile(scenario, 'utf8');
  if (/^profile:/m.test(text)) throw new Error(`${scenario}: init wrote a profile field already`);
  await writeFile(
    scenario,
    `${text}# tests/init: one profiled run per side, not 8 (tests/init/helpers.ts)\nprofile:\n  runs: 1\n`,
  );
}

/** actionlint's complaints about `files` ('' when there are none). */
export function actionlint(files: readonly string[]): Promise<string> {
  return new Promise((resolve) => {
    execFile(
      requireActionTool('actionlint'),
      ['-no-color', '-oneline', ...files],
      (error, stdout, stderr) =>
        resolve(error === null ? '' : `${stdout}${stderr}` || String(error)),
    );
  });
}
