import { jest } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { readHistory } from '../../src/history/read.js';
import {
  nightlyExample,
  scheduledNight,
  startActHistoryFixture,
  type ActHistoryFixture,
} from '../support/act-history-fixture.js';
import { HOSTILE_NAME, type ActionRepo } from '../support/action-repo.js';
import type { FakeGitHub } from '../support/fake-github.js';

/**
 * examples/workflows/nightly.yml under act in host mode, its variability step with `bisect: true`
 * (issue 24): two scheduled nights. Between them seven commits land on main,
 * the fourth making `parse` 15% slower. The second night's `base-from-history` duet calls the
 * step between the two nights' commits; the variability step bisects that range with duets
 * in the same job, and the alert issue at the fake GitHub API names the planted commit, with
 * its link and the confirmation's interval.
 */
jest.setTimeout(400_000);

/** The example (`bisect: true` on its variability step) with the repo's scenario. */
const nightlyWorkflow = () =>
  nightlyExample((s) => {
    if (s.id === 'duetkit' || s.id === 'steps') s.with!.scenario = 'bench.yml';
    if (s.id === 'variability') {
      // the example bisects as written; its workload is this repository's scenario
      expect(s.with!.bisect).toBe(true);
      s.with!.scenario = 'bench.yml';
    }
  });

/** bench.js of action-repo.ts, `parse` at FACTOR × 100 ms (a reported value, ±1% jitter). */
const bench = (factor: number) => `// factor ${factor}
const jitter = () => 1 + (Math.random() - 0.5) * 0.02;
console.log(JSON.stringify({ name: 'parse', value: 100 * ${factor} * jitter(), unit: 'ms' }));
console.log(JSON.stringify({ name: ${JSON.stringify(HOSTILE_NAME)}, value: 50 * jitter(), unit: 'ms' }));
`;

describe('the nightly workflow with bisect: true under act (schedule, host mode)', () => {
  let fixture: ActHistoryFixture;
  let repo: ActionRepo;
  let remote: string;
  let github: FakeGitHub;

  beforeAll(async () => {
    fixture = await startActHistoryFixture('duetkit-act-nightly-bisect-', {
      '.github/workflows/nightly.yml': nightlyWorkflow(),
    });
    ({ repo, remote, github } = fixture);
  });
  afterAll(() => fixture?.close());

  const night = (runId: string) => fixture.act(scheduledNight(runId, 300_000));

  it('bisects the step the paired duet called and names the planted commit in the issue', async () => {
    const first = await night('8001');
    expect(first.output).toContain('Job succeeded');
    expect(first.code).toBe(0);
    expect(github.issues.size).toBe(0);

    // seven commits land on main; the fourth makes parse 15% slower
    const git = (...args: string[]) =>
      execFileSync('git', args, { cwd: repo.dir, encoding: 'utf8' }).trim();
    const landed: string[] = [];
    for (let i = 1; i <= 7; i++) {
      writeFileSync(path.join(repo.dir, 'bench.js'), bench(i >= 4 ? 1.15 : 1));
      writeFileSync(path.join(repo.dir, 'CHANGES.md'), `change ${i}\n`);
      git('add', '-A');
      git('commit', '-q', '-m', `change ${i} (#${200 + i})`);
      landed.push(git('rev-parse', 'HEAD'));
    }
    const planted = landed[3]!;

    const second = await night('8002');
    expect(second.output).toContain('Job succeeded');
    expect(second.code).toBe(0);
    // the paired duet called the step between the nights' commits
    const steps = await readHistory({ remote, suite: 'nightly-steps' });
    expect(steps.entries).toHaveLength(2);
    const parseStep = steps.entries[1]!.benchmarks.find((b) => b.name === 'parse')!;
    expect(parseStep.comparison).toMatchObject({
      baseCommit: repo.mainTip,
      verdict: 'regression',
    });
    expect(steps.entries[1]!.commit?.id).toBe(landed[6]);
    // the bisection ran in the job, between those commits
    expect(second.output).toContain(
      `bisect: parse between ${repo.mainTip.slice(0, 10)} and ${landed[6]!.slice(0, 10)}`,
    );
    expect(second.output).toMatch(/duet: \w{10} change \d \(#20\d\) against \w{10}/);

    // the alert issue names the planted commit, its link and the confirmation's interval
    const issue = [...github.issues.values()].find((i) => i.body.includes('  - bisect ('));
    expect(issue).toBeDefined();
    const line = issue!.body.split('\n').find((l) => l.startsWith('  - bisect ('));
    expect(line).toBeDefined();
    expect(line).toContain(
      `culprit [\`${planted.slice(0, 10)}\`](https://github.com/octo/bench/commit/${planted}) change 4 (#204); confirmation \`${landed[2]!.slice(0, 10)}\` → \`${planted.slice(0, 10)}\`: +`,
    );
    expect(line).toMatch(/\[[+-]\d+\.\d\d%, \+\d+\.\d\d%\] \(\d+% CI, \d+ pairs\)/);
    // no other commit is named a culprit anywhere in the issues
    for (const other of [...landed.slice(0, 3), ...landed.slice(4)]) {
      for (const i of github.issues.values())
        expect(i.body).not.toContain(`culprit [\`${other.slice(0, 10)}\`]`);
    }
    expect(github.problems()).toEqual([]);
  });
});
