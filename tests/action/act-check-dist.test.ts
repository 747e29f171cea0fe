import { jest } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { localizeWorkflow, runAct } from '../support/act.js';
import { ROOT } from '../support/bundle-action.js';
import { startFakeGitHub, type FakeGitHub } from '../support/fake-github.js';

jest.setTimeout(400_000);

/**
 * This repository's .github/workflows/check-dist.yml under act (host mode), in a clone-like
 * copy of the committed files: `npm ci` against the committed lock file (the registry is
 * reachable), `npm run bundle`, and the comparison of dist/ — green as committed, red with
 * the workflow's own message once dist/ is stale. actions/setup-node is left out (Node 24 is
 * on PATH, from node_modules/.bin).
 */
describe('.github/workflows/check-dist.yml under act', () => {
  let dir: string;
  let github: FakeGitHub;
  const git = (...args: string[]): string =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@e', ...args], {
      cwd: dir,
      encoding: 'utf8',
      stdio: 'pipe',
    });
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'duetkit-check-dist-'));
    // The files a clone of this commit would have, as they are in the working tree.
    const files = execFileSync(
      'git',
      ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    )
      .split('\0')
      .filter((f) => f !== '');
    for (const file of files) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      try {
        cpSync(path.join(ROOT, file), path.join(dir, file));
      } catch {
        // listed but deleted in the working tree
      }
    }
    writeFileSync(
      path.join(dir, '.github/workflows/check-dist.yml'),
      localizeWorkflow(path.join(ROOT, '.github/workflows/check-dist.yml')),
    );
    git('init', '-q', '-b', 'main');
    git('remote', 'add', 'origin', 'https://github.com/octo/duetkit.git');
    git('add', '-A');
    git('commit', '-q', '-m', 'as committed');
    github = await startFakeGitHub();
  });
  afterAll(async () => {
    await github?.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(`${dir}-event.json`, { force: true });
  });

  const run = () => {
    const sha = git('rev-parse', 'HEAD').trim();
    return runAct(dir, {
      event: 'push',
      payload: { ref: 'refs/heads/main', after: sha, repository: { full_name: 'octo/duetkit' } },
      workflow: '.github/workflows/check-dist.yml',
      apiUrl: github.url,
      timeoutMs: 360_000,
    });
  };

  it('passes as committed: npm ci accepts the lock file, and dist/ is the bundle of src/', async () => {
    const result = await run();
    expect(result.output).toContain('Success - Main npm ci');
    expect(result.output).toContain('Success - Main Compare dist/ with the fresh bundle');
    expect(result.code).toBe(0);
  });

  it('fails, naming the file, when dist/ is not the bundle of src/', async () => {
    appendFileSync(path.join(dir, 'dist/index.js'), '\n// edited by hand\n');
    git('commit', '-q', '-am', 'a stale bundle');
    const result = await run();
    // The step fails naming the file (its `::error::` line is a workflow command act consumes).
    expect(result.output).toContain('Failure - Main Compare dist/ with the fresh bundle');
    expect(result.output).toMatch(/ M dist\/index\.js/);
    expect(result.code).not.toBe(0);
  });
});
