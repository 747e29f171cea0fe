import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createGit } from '../../src/git/git.js';
import { createWorktreeSet } from '../../src/git/worktrees.js';
import { makeRepo } from './helpers.js';

describe('git worktrees', () => {
  let repo: string;
  beforeAll(async () => (repo = await makeRepo((v) => ({ 'version.txt': `${v}\n` }))));
  afterAll(() => rm(repo, { recursive: true, force: true }));

  it('resolves refs and checks them out side by side, then removes them', async () => {
    const git = createGit(repo);
    expect(await git.topLevel()).toBe(repo);
    const v1 = await git.resolveCommit('v1');
    expect(v1).toMatch(/^[0-9a-f]{40}$/);
    const set = createWorktreeSet(git);
    const one = await set.add('base', v1);
    const two = await set.add('head', await git.resolveCommit('v2'));
    expect(readFileSync(path.join(one, 'version.txt'), 'utf8')).toBe('1\n');
    expect(readFileSync(path.join(two, 'version.txt'), 'utf8')).toBe('2\n');
    expect(await git.listWorktrees()).toEqual([repo, one, two]);
    await set.dispose();
    expect(await git.listWorktrees()).toEqual([repo]);
    expect(existsSync(path.dirname(one))).toBe(false);
  });

  it('removes a checkout that git refuses to remove, and forgets it', async () => {
    const git = createGit(repo);
    const set = createWorktreeSet(git);
    const dir = await set.add('base', await git.resolveCommit('v1'));
    // A checkout whose .git link is gone: `git worktree remove` refuses it.
    await rm(path.join(dir, '.git'));
    expect(() =>
      execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: repo, stdio: 'pipe' }),
    ).toThrow();
    await set.dispose();
    expect(existsSync(dir)).toBe(false);
    expect(await git.listWorktrees()).toEqual([repo]);
  });

  it('names a bad ref and a directory outside any repository', async () => {
    await expect(createGit(repo).resolveCommit('no-such-ref')).rejects.toThrow(
      /git ref "no-such-ref" does not name a commit/,
    );
    expect(await createGit(os.tmpdir()).topLevel()).toBeNull();
  });

  it('tells a dirty checkout from a clean one', async () => {
    const git = createGit(repo);
    expect(await git.isDirty()).toBe(false);
    await writeFile(path.join(repo, 'version.txt'), 'changed\n');
    expect(await git.isDirty()).toBe(true);
    execFileSync('git', ['checkout', '--', 'version.txt'], { cwd: repo });
  });
});
