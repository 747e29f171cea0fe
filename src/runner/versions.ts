import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Git } from '../git/git.js';
import type { WorktreeSet } from '../git/worktrees.js';
import type { VersionSpec } from '../scenario/schema.js';
import { RunError } from '../process/errors.js';
import type { VersionRecord } from '../contracts/samples.js';
import { runSetup } from './setup.js';

export interface PrepareOptions {
  /** Directory that `path`s are relative to (the scenario file's). */
  baseDir: string;
  gitAt: (cwd: string) => Git;
  worktrees: WorktreeSet;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
}

/**
 * Resolves every version to a directory and commit: a path as it is, a git ref as a fresh
 * worktree of the scenario's repository. Then runs each `setup`. Worktrees are left in
 * `options.worktrees` for the caller to remove, whatever happens.
 */
export async function prepareVersions(
  specs: readonly VersionSpec[],
  options: PrepareOptions,
): Promise<VersionRecord[]> {
  const records: VersionRecord[] = [];
  for (const [i, spec] of specs.entries()) {
    records.push(await resolveVersion(spec, i, options));
  }
  for (const [i, spec] of specs.entries()) {
    if (spec.setup === undefined) continue;
    await runSetup(spec.setup, {
      version: spec.name,
      cwd: records[i]!.dir,
      env: { ...options.env, ...spec.env },
      signal: options.signal,
    });
  }
  return records;
}

async function resolveVersion(
  spec: VersionSpec,
  i: number,
  options: PrepareOptions,
): Promise<VersionRecord> {
  if (spec.path !== undefined) {
    const dir = path.resolve(options.baseDir, spec.path);
    await requireDirectory(dir, `versions[${i}].path`);
    const git = options.gitAt(dir);
    const inRepo = (await git.topLevel()) !== null;
    return {
      name: spec.name,
      source: { path: spec.path },
      commit: inRepo ? await git.resolveCommit('HEAD') : null,
      dirty: inRepo ? await git.isDirty() : false,
      dir,
    };
  }
  const ref = spec.ref!;
  const git = options.gitAt(options.baseDir);
  if ((await git.topLevel()) === null) {
    throw new RunError(
      `versions[${i}].ref: "${ref}" needs a git repository, but ${options.baseDir} is not in one`,
    );
  }
  const commit = await git.resolveCommit(ref);
  const checkout = await options.worktrees.add(spec.name, commit);
  const dir = spec.dir === undefined ? checkout : path.join(checkout, spec.dir);
  await requireDirectory(dir, `versions[${i}].dir`);
  return {
    name: spec.name,
    source: spec.dir === undefined ? { ref } : { ref, dir: spec.dir },
    commit,
    dirty: false,
    dir,
  };
}

async function requireDirectory(dir: string, field: string): Promise<void> {
  const info = await stat(dir).catch(() => null);
  if (info === null || !info.isDirectory()) {
    throw new RunError(`${field}: ${dir} is not a directory; expected an existing directory`);
  }
}
