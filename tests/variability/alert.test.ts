import { plantedHistory } from '../../benchmarks/variability/history.js';
import type { HistoryEntry } from '../../src/history/schema.js';
import { stateOf } from '../../src/variability/alert.js';
import { analyzeVariability } from '../../src/variability/analyze.js';
import { createIssueApi } from '../../src/variability/issue-api.js';
import { alertIssue } from '../../src/variability/issue-alert.js';
import { startFakeGitHub, type FakeGitHub } from '../support/fake-github.js';

const suiteOf = (entries: HistoryEntry[]) =>
  analyzeVariability(entries, { now: new Date('2026-12-01T00:00:00Z') }).suites[0]!;

/** 60 nights with a 6% step at night 40; `called` marks nights whose A/A duet misfired. */
function history(runs: number, called: number[] = []): HistoryEntry[] {
  return plantedHistory({
    runs,
    seed: 31,
    step: { at: 40, size: 0.06 },
    aa: { mde: 0.01, falsePositive: 0 },
  }).map((e, i) => {
    if (!called.includes(i)) return e;
    const aa = e.aa as {
      calledChanged: number;
      benchmarks: { calledChanged: boolean; verdict: string }[];
    };
    return {
      ...e,
      aa: {
        ...aa,
        calledChanged: 1,
        benchmarks: aa.benchmarks.map((b) => ({
          ...b,
          calledChanged: true,
          verdict: 'regression',
        })),
      },
    } as HistoryEntry;
  });
}

describe('alert: issue against the strict fake GitHub API', () => {
  let github: FakeGitHub;
  const saved = process.env.GITHUB_API_URL;
  beforeAll(async () => {
    github = await startFakeGitHub();
    process.env.GITHUB_API_URL = github.url;
  });
  afterAll(async () => {
    process.env.GITHUB_API_URL = saved;
    await github.close();
  });

  it('opens one issue, never a second, says when it cleared and reopens on a new alert', async () => {
    const api = createIssueApi('t0ken', { owner: 'acme', repo: 'app' });
    const night = (d: number) => new Date(Date.UTC(2026, 2, d, 4));

    // night 1: the step is new → one issue
    expect(await alertIssue(api, suiteOf(history(55)), night(1))).toMatchObject({
      action: 'opened',
      issue: 1,
    });
    // night 2: the same step (its estimate may move by a run) → nothing, no second issue
    expect(await alertIssue(api, suiteOf(history(56)), night(2))).toMatchObject({
      action: 'cleared',
      issue: 1,
    });
    expect(await alertIssue(api, suiteOf(history(57)), night(3))).toMatchObject({
      action: 'none',
      issue: 1,
    });
    expect(github.issues.size).toBe(1);
    const issue = github.issues.get(1)!;
    expect(issue.labels).toEqual(['duetkit-variability']);
    expect(issue.body).toMatch(/^<!-- duetkit:variability-alert suite=nightly -->/);
    expect(issue.body).toMatch(/\*\*Status: ✅ cleared\*\* on 2026-03-02/);
    expect(issue.body).toMatch(/🔴 regression \+[\d.]+% .* between runs run-0039/);
    expect(stateOf(issue.body)!.known).toHaveLength(1);

    // a human closes it; night 4: tonight's A/A duet calls main changed → reopened, commented
    issue.state = 'closed';
    expect(await alertIssue(api, suiteOf(history(58, [57])), night(4))).toMatchObject({
      action: 'updated',
      issue: 1,
    });
    expect(issue.state).toBe('open');
    expect(issue.body).toMatch(/\*\*Status: ⚠️ active\*\* since 2026-03-04/);
    const comments = [...github.comments.values()].filter((c) => c.issue === 1).map((c) => c.body);
    expect(comments).toHaveLength(2);
    expect(comments[0]).toMatch(/\*\*2026-03-02\*\*: ✅ cleared/);
    expect(comments[1]).toMatch(/A\/A duet of run run-0057 .* called changed: bench/);
    expect(github.issues.size).toBe(1);
    expect(github.problems()).toEqual([]);
  });

  it('a token without issues: write is a PermissionError naming the permission', async () => {
    const readOnly = await startFakeGitHub({ readOnly: true });
    process.env.GITHUB_API_URL = readOnly.url;
    try {
      const api = createIssueApi('t0ken', { owner: 'acme', repo: 'app' });
      await expect(alertIssue(api, suiteOf(history(50)), new Date())).rejects.toThrow(
        /needs "issues: write"/,
      );
    } finally {
      process.env.GITHUB_API_URL = github.url;
      await readOnly.close();
    }
  });
});
