import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveBaseHead } from '../../src/action/refs.js';
import { createGitHistory } from '../../src/git/history.js';
import type { GitHubEvent } from '../../src/github/event.js';
import { makeActionRepo, pullRequestEvent, type ActionRepo } from '../support/action-repo.js';

const event = (name: string, payload: Record<string, unknown>, sha?: string): GitHubEvent => ({
  name,
  payload,
  repository: { owner: 'octo', repo: 'bench' },
  sha: sha ?? null,
});
const none = { baseRef: null, headRef: null };

describe('resolveBaseHead, on real repositories', () => {
  let work: string;
  let repo: ActionRepo;
  const git = (cwd: string, ...args: string[]): string =>
    execFileSync('git', args, { cwd, encoding: 'utf8', stdio: 'pipe' }).trim();

  beforeAll(() => {
    work = mkdtempSync(path.join(os.tmpdir(), 'duetkit-refs-'));
    repo = makeActionRepo(work); // dist/ is the empty directory `work`: not run here
  });
  afterAll(() => {
    rmSync(work, { recursive: true, force: true });
    rmSync(repo.dir, { recursive: true, force: true });
  });

  it('pull_request: the merge base of the base branch and the head, not the base tip', async () => {
    const result = await resolveBaseHead(
      none,
      event('pull_request', pullRequestEvent(repo, repo.slow)),
      createGitHistory(repo.dir),
    );
    expect(result).toEqual({
      base: repo.root,
      head: repo.slow,
      how: 'merge base of main and the PR head',
    });
    expect(result.base).not.toBe(repo.mainTip);
  });

  it('push: the branch before the push, or the parent for a new branch', async () => {
    const history = createGitHistory(repo.dir);
    expect(
      await resolveBaseHead(none, event('push', { before: repo.root, after: repo.slow }), history),
    ).toMatchObject({ base: repo.root, head: repo.slow });
    expect(
      await resolveBaseHead(
        none,
        event('push', { before: '0'.repeat(40), after: repo.same }),
        history,
      ),
    ).toMatchObject({ base: repo.root, head: repo.same });
  });

  it('given refs win, names resolve, and other events need base-ref', async () => {
    const history = createGitHistory(repo.dir);
    expect(
      await resolveBaseHead(
        { baseRef: 'main', headRef: 'slow' },
        event('workflow_dispatch', {}),
        history,
      ),
    ).toEqual({ base: repo.mainTip, head: repo.slow, how: 'base-ref input' });
    await expect(resolveBaseHead(none, event('schedule', {}), history)).rejects.toThrow(
      'Input "base-ref": required for "schedule" events',
    );
    await expect(
      resolveBaseHead({ baseRef: 'no-such-branch', headRef: null }, event('push', {}), history),
    ).rejects.toThrow(/base-ref "no-such-branch" is not a commit .*set "fetch-depth: 0"/);
  });

  /** A depth-1 clone of the PR branch with main fetched at depth 1 (merge base missing). */
  const shallowClone = (name: string): string => {
    const clone = path.join(work, name);
    git(
      work,
      'clone',
      '-q',
      '--depth',
      '1',
      '--no-local',
      '--branch',
      'slow',
      `file://${repo.dir}`,
      clone,
    );
    git(clone, 'fetch', '-q', '--depth', '1', 'origin', 'main');
    return clone;
  };

  it('a shallow clone is deepened from origin to find the merge base', async () => {
    const clone = shallowClone('shallow');
    expect(git(clone, 'rev-parse', '--is-shallow-repository')).toBe('true');
    const result = await resolveBaseHead(
      none,
      event('pull_request', pullRequestEvent(repo, repo.slow)),
      createGitHistory(clone),
    );
    expect(result.base).toBe(repo.root);
    expect(git(clone, 'rev-parse', '--is-shallow-repository')).toBe('false');
  });

  it('a shallow clone that cannot be deepened fails with the fetch-depth: 0 advice', async () => {
    const clone = shallowClone('stranded');
    git(clone, 'remote', 'set-url', 'origin', path.join(work, 'gone'));
    await expect(
      resolveBaseHead(
        none,
        event('pull_request', pullRequestEvent(repo, repo.slow)),
        createGitHistory(clone),
      ),
    ).rejects.toThrow(/history needed is missing .*set "fetch-depth: 0" on actions\/checkout/);
  });
});
