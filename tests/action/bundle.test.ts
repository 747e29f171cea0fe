import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeActionRepo, pullRequestEvent, type ActionRepo } from '../support/action-repo.js';
import { bundleAction } from '../support/bundle-action.js';
import { startFakeGitHub, type FakeGitHub } from '../support/fake-github.js';
import { runBundle } from '../support/run-bundle.js';

/** The bundled main step run as a process, for what the act runs do not cover. */
describe('dist/index.js as a process', () => {
  let work: string;
  let dist: string;
  let repo: ActionRepo;
  let github: FakeGitHub;
  let results: string;

  beforeAll(async () => {
    work = mkdtempSync(path.join(os.tmpdir(), 'duetkit-bundle-'));
    dist = path.join(work, 'dist');
    await bundleAction(dist);
    repo = makeActionRepo(dist, {
      'broken.yml':
        'name: broken\nversions: [{name: base, ref: main}, {name: head, ref: HEAD}]\nworkload: {command: "sh -c \'echo oops >&2; exit 3\'"}\niterations: 3\nisolation: none\n',
    });
    github = await startFakeGitHub();
    // Results of a real run, for the comment-mode tests.
    results = path.join(work, 'results');
    const run = await runBundle(dist, {
      cwd: repo.dir,
      inputs: { scenario: 'bench.yml', 'results-directory': results, comment: 'never' },
      event: { name: 'pull_request', payload: pullRequestEvent(repo, repo.slow, { number: 5 }) },
      apiUrl: github.url,
    });
    expect(run.outputs.verdict).toBe('regression');
  });
  afterAll(async () => {
    await github.close();
    rmSync(work, { recursive: true, force: true });
    rmSync(repo.dir, { recursive: true, force: true });
  });

  it('a bad input fails the step with the input named, before anything runs', async () => {
    const run = await runBundle(dist, {
      cwd: repo.dir,
      inputs: { scenario: 'bench.yml', 'fail-on': 'sometimes' },
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(
      '::error::Input "fail-on": got "sometimes"; accepted: regression, inconclusive, never',
    );
  });

  it('a failed run fails the step, says why, and keeps the samples', async () => {
    const run = await runBundle(dist, {
      cwd: repo.dir,
      inputs: { scenario: 'broken.yml', 'results-directory': path.join(work, 'broken') },
      event: { name: 'push', payload: { before: repo.root, after: repo.same } },
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/::error::duetkit: the run failed: .*exited with code 3.*oops/s);
    expect(run.summary).toContain('**The run failed**');
    expect(run.outputs.verdict).toBe('error');
    const samples = JSON.parse(readFileSync(path.join(work, 'broken', 'samples.json'), 'utf8'));
    expect(samples.complete).toBe(false);
  });

  it('mode: comment refuses a tampered artifact', async () => {
    const tampered = path.join(work, 'tampered');
    cpSync(results, tampered, { recursive: true });
    const file = path.join(tampered, 'comparison.json');
    const report = JSON.parse(readFileSync(file, 'utf8'));
    report.results[0].comparison.change = '<img src=x onerror=alert(1)>';
    writeFileSync(file, JSON.stringify(report));
    const run = await runBundle(dist, {
      cwd: work,
      inputs: { mode: 'comment', 'results-directory': tampered, 'github-token': 't' },
      event: { name: 'workflow_run', payload: { workflow_run: { head_sha: repo.slow } } },
      apiUrl: github.url,
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(
      /::error::.*comparison.json is not a duetkit result: results\.0\.comparison\.change/,
    );
    expect(github.requests).toEqual([]);
  });

  it('mode: comment does not post results of a commit the PR has moved on from', async () => {
    github.options.pullHeads = { 5: repo.same };
    const run = await runBundle(dist, {
      cwd: work,
      inputs: { mode: 'comment', 'results-directory': results, 'github-token': 't' },
      event: { name: 'workflow_run', payload: { workflow_run: { head_sha: repo.slow } } },
      apiUrl: github.url,
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`::warning::PR #5 is now at ${repo.same}, not ${repo.slow}`);
    expect(github.requests.map((r) => r.operationId)).toEqual(['pulls/get']);
    expect(run.summary).toContain('**1 regression');
    expect(run.outputs).toMatchObject({
      verdict: 'regression',
      regressions: '1',
      'comment-url': '',
    });
  });
});
