import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cleanUp } from '../../src/action/cleanup.js';
import { makeRepo } from '../git/helpers.js';
import { bundleAction } from '../support/bundle-action.js';
import { isAlive, waitUntil } from '../isolation/helpers.js';

describe('the post step cleanup', () => {
  let repo: string;
  let work: string;
  beforeAll(async () => {
    repo = await makeRepo((v) => ({ 'a.txt': `v${v}\n` }));
    work = mkdtempSync(path.join(os.tmpdir(), 'duetkit-post-'));
  });
  afterAll(() => {
    rmSync(repo, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: repo, encoding: 'utf8', stdio: 'pipe' });

  it('stops processes left in the worktrees, removes the worktrees and prunes them', async () => {
    const parent = mkdtempSync(path.join(work, 'run-'));
    const tree = path.join(parent, 'wt', 'base');
    git('worktree', 'add', '--detach', tree, 'v1');
    const child = spawn('sleep', ['300'], { cwd: tree, stdio: 'ignore' });
    await waitUntil(() => child.pid !== undefined && isAlive(child.pid));
    const warnings = await cleanUp({ worktrees: parent, repository: repo, cgroup: '' });
    expect(warnings).toEqual([]);
    await waitUntil(() => child.exitCode !== null || child.signalCode !== null);
    expect(child.signalCode).toBe('SIGKILL');
    expect(existsSync(parent)).toBe(false);
    expect(git('worktree', 'list')).not.toContain(tree);
  });

  it('turns every problem into a warning and still does the rest', async () => {
    const parent = mkdtempSync(path.join(work, 'run-'));
    // Not a cgroup: a directory that cannot be removed with rmdir.
    const fakeCgroup = path.join(work, 'cgroup');
    mkdirSync(fakeCgroup);
    writeFileSync(path.join(fakeCgroup, 'cgroup.procs'), '');
    const warnings = await cleanUp({
      worktrees: parent,
      repository: path.join(work, 'not-a-repo'),
      cgroup: fakeCgroup,
    });
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^post: could not remove cgroup .*cgroup: ENOTEMPTY/);
    expect(warnings[1]).toMatch(/^post: could not remove worktrees in .*git worktree prune/);
    expect(existsSync(parent)).toBe(false);
  });

  it('the bundled post step warns and exits 0', async () => {
    const dist = path.join(work, 'dist');
    await bundleAction(dist);
    const fakeCgroup = path.join(work, 'cgroup2');
    mkdirSync(fakeCgroup);
    writeFileSync(path.join(fakeCgroup, 'cgroup.procs'), '');
    const result = spawnSync(process.execPath, [path.join(dist, 'post.js')], {
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH,
        STATE_cgroup: fakeCgroup,
        STATE_worktrees: '',
        STATE_repository: '',
      },
    });
    expect(result.stdout).toMatch(/^::warning::post: could not remove cgroup/m);
    expect(result.status).toBe(0);
  });
});
