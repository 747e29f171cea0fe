import { jest } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runAct } from '../support/act.js';
import { bundleAction, ROOT } from '../support/bundle-action.js';
import { startFakeGitHub, type FakeGitHub } from '../support/fake-github.js';

jest.setTimeout(240_000);

/**
 * This repository's own end-to-end workflow (.github/workflows/action-e2e.yml), unchanged,
 * under act: `uses: ./` on the quickstart scenario, in a copy of the files it needs.
 */
describe('.github/workflows/action-e2e.yml under act', () => {
  let dir: string;
  let github: FakeGitHub;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'duetkit-e2e-'));
    for (const file of [
      'action.yml',
      '.github/workflows/action-e2e.yml',
      'scenarios/quickstart.yml',
      'examples/quickstart',
    ]) {
      cpSync(path.join(ROOT, file), path.join(dir, file), { recursive: true });
    }
    await bundleAction(path.join(dir, 'dist'));
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
    git('init', '-q', '-b', 'main');
    git('remote', 'add', 'origin', 'https://github.com/octo/duetkit.git');
    git('-c', 'user.name=t', '-c', 'user.email=t@e', 'add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-q', '-m', 'e2e');
    github = await startFakeGitHub();
  });
  afterAll(async () => {
    await github?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs the quickstart, checks its outputs and files, and comments on the PR', async () => {
    const sha = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();
    const repo = { full_name: 'octo/duetkit' };
    const run = await runAct(dir, {
      event: 'pull_request',
      payload: {
        number: 7,
        pull_request: {
          number: 7,
          head: { sha, ref: 'feature', repo },
          base: { sha, ref: 'main', repo },
        },
        repository: repo,
      },
      workflow: '.github/workflows/action-e2e.yml',
      apiUrl: github.url,
      vars: { DUETKIT_E2E_BUDGET: '8s' },
    });
    expect(run.output).toContain('Success - Main Check the outputs and the results directory');
    expect(run.code).toBe(0);
    expect(run.output).toMatch(/verdict=(regression|inconclusive) regressions=[01] results=/);
    // The quickstart's head is 6% slower: something changed, so `on-change` posts.
    expect(github.requests.map((r) => r.operationId)).toEqual([
      'issues/list-comments',
      'issues/create-comment',
    ]);
    expect([...github.comments.values()][0]!.body).toMatch(/\| checksum \|/);
    expect(github.problems()).toEqual([]);
  });
});
