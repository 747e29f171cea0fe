import { jest } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { escapeInline } from '../../src/report/escape.js';
import { localizeWorkflow, runAct } from '../support/act.js';
import {
  HOSTILE_NAME,
  makeActionRepo,
  pullRequestEvent,
  type ActionRepo,
} from '../support/action-repo.js';
import { bundleAction, ROOT } from '../support/bundle-action.js';
import { startFakeGitHub, type FakeGitHub } from '../support/fake-github.js';

/**
 * The example workflows of examples/workflows/, run for real with act in host mode against a
 * GitHub API on 127.0.0.1 that validates every request against GitHub's OpenAPI description.
 * What act cannot do offline is swapped for local equivalents (see localizeWorkflow).
 */
jest.setTimeout(240_000);

const marker = '<!-- duetkit:comment suite=micro -->';

describe('the action under act (host mode)', () => {
  let work: string;
  let repo: ActionRepo;
  let github: FakeGitHub;
  let artifacts: string;

  beforeAll(async () => {
    work = mkdtempSync(path.join(os.tmpdir(), 'duetkit-act-'));
    await bundleAction(path.join(work, 'dist'));
    repo = makeActionRepo(path.join(work, 'dist'), {
      '.github/workflows/pr-gate.yml': localizeWorkflow(
        path.join(ROOT, 'examples/workflows/pr-gate.yml'),
        { scenario: 'bench.yml', comment: 'always' },
      ),
      '.github/workflows/fork-safe-bench.yml': localizeWorkflow(
        path.join(ROOT, 'examples/workflows/fork-safe-bench.yml'),
        // Inline inputs instead of a scenario file; no npm project to set up here.
        { run: 'node bench.js', setup: null, iterations: '12', seed: '7' },
      ),
      '.github/workflows/fork-safe-comment.yml': localizeWorkflow(
        path.join(ROOT, 'examples/workflows/fork-safe-comment.yml'),
      ),
    });
    github = await startFakeGitHub();
  });
  afterAll(async () => {
    await github?.close();
    rmSync(work, { recursive: true, force: true });
    rmSync(repo.dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    artifacts = mkdtempSync(path.join(work, 'artifacts-'));
    github.requests.length = 0;
    github.options.readOnly = false;
  });

  const act = (workflow: string, payload: Record<string, unknown>, event = 'pull_request') =>
    runAct(repo.dir, {
      event,
      payload,
      workflow: `.github/workflows/${workflow}`,
      apiUrl: github.url,
      env: { DUETKIT_ARTIFACTS: artifacts },
    });
  const artifact = (name: string, file: string): string =>
    readFileSync(path.join(artifacts, name, file), 'utf8');
  /** What the step wrote to the job summary, as act logs it. */
  const summaryOf = (output: string): string => output.split('Summary - ').slice(1).join('\n');
  const ops = (): string[] => github.requests.map((r) => `${r.operationId} ${r.status}`);

  it('first run creates the comment, second run updates the same one', async () => {
    const first = await act('pr-gate.yml', pullRequestEvent(repo, repo.same));
    expect(first.output).toContain('Job succeeded');
    expect(first.code).toBe(0);
    expect(ops()).toEqual(['issues/list-comments 200', 'issues/create-comment 201']);
    expect(github.comments.size).toBe(1);
    const [id, comment] = [...github.comments.entries()][0]!;
    expect(comment.issue).toBe(42);
    expect(comment.body.startsWith(`${marker}\n### duetkit: micro`)).toBe(true);
    expect(comment.body).toContain('**0 regressions, 0 improvements, 2 unchanged** — duet');
    // The hostile benchmark name is shown, but defused.
    expect(comment.body).not.toContain('<b>');
    expect(comment.body).not.toMatch(/@everyone/);
    expect(comment.body).toContain('&lt;b&gt;@&#8203;everyone&lt;/b&gt; \\| \\`x\\`');
    expect(comment.body).toContain(`| ${escapeInline(HOSTILE_NAME)} |`);
    // The base is the merge base of main and the PR head, not main's tip.
    const samples = JSON.parse(artifact('duetkit-results', 'samples.json'));
    expect(samples.versions.map((v: { commit: string }) => v.commit)).toEqual([
      repo.root,
      repo.same,
    ]);
    expect(summaryOf(first.output)).toContain('### duetkit: micro');

    github.requests.length = 0;
    const second = await act('pr-gate.yml', pullRequestEvent(repo, repo.same));
    expect(second.code).toBe(0);
    expect(ops()).toEqual(['issues/list-comments 200', 'issues/update-comment 200']);
    expect([...github.comments.keys()]).toEqual([id]);
    expect(github.problems()).toEqual([]);
  });

  it('a regression fails the job with a message naming the benchmark', async () => {
    const run = await act('pr-gate.yml', pullRequestEvent(repo, repo.slow, { number: 43 }));
    expect(run.code).not.toBe(0);
    // Workflow commands encode "%" as "%25"; act prints them as they are.
    expect(run.output.replaceAll('%25', '%')).toMatch(
      /::error::duetkit: 1 benchmark regressed beyond the ±5\.00% threshold: parse \+1\d\.\d+% \[\+1\d\.\d+%, \+1\d\.\d+%\] regression/,
    );
    expect(run.output).toContain('Job failed');
    const comment = [...github.comments.values()].find((c) => c.issue === 43)!;
    expect(comment.body).toContain('**1 regression, 0 improvements, 1 unchanged**');
    expect(comment.body).toMatch(/\| parse \| .* \| 🔴 regression \|/);
    // The results are uploaded whatever the gate said.
    expect(JSON.parse(artifact('duetkit-results', 'comparison.json')).summary.regression).toBe(1);
    expect(github.problems()).toEqual([]);
  });

  it('a fork PR: summary and artifact, no API write, no failure', async () => {
    const run = await act(
      'fork-safe-bench.yml',
      pullRequestEvent(repo, repo.same, { number: 44, fork: true }),
    );
    expect(run.code).toBe(0);
    expect(run.output).toContain('Job succeeded');
    expect(github.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(summaryOf(run.output)).toContain('2 unchanged');
    for (const file of ['comparison.json', 'samples.json', 'comment.md', 'duetkit-run.json']) {
      expect(existsSync(path.join(artifacts, 'duetkit-results', file))).toBe(true);
    }
    expect(JSON.parse(artifact('duetkit-results', 'duetkit-run.json')).pullRequest).toEqual({
      number: 44,
      headSha: repo.same,
    });

    // Part 2 of the pair, on workflow_run: posts the comment from the artifact.
    github.options.pullHeads = { 44: repo.same };
    const comment = await act(
      'fork-safe-comment.yml',
      {
        workflow_run: {
          id: 99,
          event: 'pull_request',
          conclusion: 'success',
          head_sha: repo.same,
          pull_requests: [],
        },
        repository: { full_name: 'octo/bench' },
      },
      'workflow_run',
    );
    expect(comment.code).toBe(0);
    expect(ops()).toEqual(['pulls/get 200', 'issues/list-comments 200']);
    // comment: on-change and nothing changed: no new comment.
    expect([...github.comments.values()].some((c) => c.issue === 44)).toBe(false);
    expect(github.problems()).toEqual([]);
  });

  it('the workflow_run half posts a changed result, and refuses results of another commit', async () => {
    const run = await act(
      'fork-safe-bench.yml',
      pullRequestEvent(repo, repo.slow, { number: 45, fork: true }),
    );
    expect(run.code).not.toBe(0); // the gate still applies to forks
    expect(run.output).toContain('parse +1');
    github.options.pullHeads = { 45: repo.slow };
    const payload = (sha: string) => ({
      workflow_run: { id: 100, event: 'pull_request', head_sha: sha, pull_requests: [] },
      repository: { full_name: 'octo/bench' },
    });
    const posted = await act('fork-safe-comment.yml', payload(repo.slow), 'workflow_run');
    expect(posted.code).toBe(0);
    const comment = [...github.comments.values()].find((c) => c.issue === 45)!;
    expect(comment.body).toContain('**1 regression');
    const refused = await act('fork-safe-comment.yml', payload(repo.same), 'workflow_run');
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain('refusing to comment');
    expect(github.problems()).toEqual([]);
  });

  it('a 403 from the API is a warning: summary and artifact, no failure', async () => {
    github.options.readOnly = true;
    const run = await act('pr-gate.yml', pullRequestEvent(repo, repo.same, { number: 46 }));
    expect(run.code).toBe(0);
    expect(ops()).toEqual(['issues/list-comments 200', 'issues/create-comment 403']);
    expect(run.output).toMatch(/::warning::the token may not comment on PR #46 .*403/);
    expect(summaryOf(run.output)).toContain('2 unchanged');
    expect(existsSync(path.join(artifacts, 'duetkit-results', 'comparison.json'))).toBe(true);
    expect(github.problems()).toEqual([]);
  });

  it('push: the base is the previous commit of the branch', async () => {
    writeFileSync(path.join(work, 'unused'), '');
    const run = await act(
      'pr-gate.yml',
      {
        before: repo.root,
        after: repo.slow,
        ref: 'refs/heads/main',
        repository: { full_name: 'octo/bench' },
      },
      'push',
    );
    expect(run.output).toMatch(/base [0-9a-f]{40} \(previous commit of the branch\)/);
    const samples = JSON.parse(artifact('duetkit-results', 'samples.json'));
    expect(samples.versions.map((v: { commit: string }) => v.commit)).toEqual([
      repo.root,
      repo.slow,
    ]);
    expect(github.requests).toEqual([]); // no PR, no comment
  });
});
