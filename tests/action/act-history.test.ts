import { jest } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { readHistory } from '../../src/history/read.js';
import { startActHistoryFixture, type ActHistoryFixture } from '../support/act-history-fixture.js';
import { pullRequestEvent, type ActionRepo } from '../support/action-repo.js';
import type { FakeGitHub } from '../support/fake-github.js';

/**
 * `publish: history` under act in host mode: a push leaves the run's entry on the history
 * branch of a local bare repository (with the dashboard); a pull request publishes nothing
 * and its comment shows the branch's trend from that history.
 */
jest.setTimeout(300_000);

const WORKFLOW = `name: history
on: [push, pull_request]
permissions:
  contents: write
  pull-requests: write
jobs:
  bench:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - id: duetkit
        uses: ./
        with:
          scenario: bench.yml
          fail-on: never
          publish: history
          history-repository: \${{ vars.HISTORY_REMOTE }}
      - run: echo "entry=[\${{ steps.duetkit.outputs.history-entry }}] url=[\${{ steps.duetkit.outputs.dashboard-url }}]"
`;

describe('publish: history under act (host mode)', () => {
  let fixture: ActHistoryFixture;
  let repo: ActionRepo;
  let remote: string;
  let github: FakeGitHub;

  beforeAll(async () => {
    fixture = await startActHistoryFixture('duetkit-act-history-', {
      '.github/workflows/history.yml': WORKFLOW,
    });
    ({ repo, remote, github } = fixture);
  });
  afterAll(() => fixture?.close());

  const act = (event: string, payload: Record<string, unknown>) =>
    fixture.act({ event, payload, workflow: '.github/workflows/history.yml' });
  const tip = (): string =>
    execFileSync('git', ['for-each-ref', '--format=%(objectname)'], {
      cwd: remote,
      encoding: 'utf8',
    }).trim();

  it('push: the entry is on the branch, with the dashboard; a pull request publishes nothing', async () => {
    const push = await act('push', {
      before: repo.root,
      after: repo.slow,
      ref: 'refs/heads/main',
      repository: { full_name: 'octo/bench' },
    });
    expect(push.output).toContain('Job succeeded');
    expect(push.code).toBe(0);
    expect(push.output).toMatch(
      /history: published duetkit\/entries\/micro-[0-9a-f]{8}\/\d{4}-\d\d\/\S+\.json to gh-pages/,
    );
    expect(push.output).toMatch(
      /entry=\[duetkit\/entries\/micro-[0-9a-f]{8}\/\S+\.json\] url=\[\]/,
    );
    const read = await readHistory({ remote });
    expect(read.warnings).toEqual([]);
    expect(read.entries).toHaveLength(1);
    const entry = read.entries[0]!;
    expect(entry).toMatchObject({
      suite: 'micro',
      run: { event: 'push', workflow: 'history', ref: 'refs/heads/main' },
      commit: { id: repo.slow, message: 'slow' },
    });
    expect(entry.runId).toMatch(/^\d+-1$/);
    expect(entry.benchmarks.find((b) => b.name === 'parse')!.comparison).toMatchObject({
      baseCommit: repo.root,
      verdict: 'regression',
    });
    const files = execFileSync('git', ['ls-tree', '-r', '--name-only', 'gh-pages'], {
      cwd: remote,
      encoding: 'utf8',
    });
    for (const f of [
      'duetkit/index.html',
      'duetkit/dashboard.js',
      'duetkit/dashboard.css',
      'duetkit/suites.json',
    ]) {
      expect(files).toContain(f);
    }
    expect(github.requests).toEqual([]);

    const before = tip();
    const pr = await act('pull_request', pullRequestEvent(repo, repo.same, { number: 50 }));
    expect(pr.code).toBe(0);
    expect(pr.output).toContain(
      'history: not published, "pull_request" is not push, schedule, workflow_dispatch',
    );
    expect(tip()).toBe(before);
    // The comment has main's trend from the history beside the change.
    const comment = [...github.comments.values()].find((c) => c.issue === 50)!;
    expect(comment.body).toContain('| verdict | trend (last 1 run) |');
    expect(comment.body).toMatch(/\| parse \| .* \| `▄` \|/);
    expect(github.problems()).toEqual([]);
  });
});
