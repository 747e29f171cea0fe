import { jest } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { plantedHistory } from '../../benchmarks/variability/history.js';
import { readDashboard } from '../../src/dashboard/assets.js';
import { entryPath } from '../../src/history/layout.js';
import { readHistory } from '../../src/history/read.js';
import { VARIABILITY_HISTORY } from '../../src/variability/history-hooks.js';
import {
  nightlyExample,
  scheduledNight,
  startActHistoryFixture,
  type ActHistoryFixture,
} from '../support/act-history-fixture.js';
import type { ActionRepo } from '../support/action-repo.js';
import type { FakeGitHub } from '../support/fake-github.js';
import { writeHistory } from '../support/history-branch.js';

/**
 * examples/workflows/nightly.yml under act in host mode, on a `schedule` event: the A/A duet
 * of main is published to a local bare history (with its `aa` figures), the variability
 * report renders, and the alert issue goes to the fake GitHub API (schema-checked) exactly
 * once across two nights. The `base-from-history` step is an A/A on the first night (no
 * earlier run); a 15% slower `parse` lands before the second, whose duet against the first
 * night's commit calls it: a second suite, a second issue, each created once.
 */
jest.setTimeout(400_000);

/** The example, runnable here: the repo's scenario, the local history, the report printed. */
const nightlyWorkflow = () =>
  nightlyExample(
    (s) => {
      if (s.id === 'duetkit' || s.id === 'steps' || s.id === 'variability')
        s.with!.scenario = 'bench.yml';
    },
    [
      {
        name: 'show the report',
        if: 'always()',
        run: 'cat "$(dirname "${{ steps.variability.outputs.variability-path }}")/variability.md"',
      },
    ],
  );

describe('the nightly workflow under act (schedule, host mode)', () => {
  let fixture: ActHistoryFixture;
  let repo: ActionRepo;
  let remote: string;
  let github: FakeGitHub;

  beforeAll(async () => {
    fixture = await startActHistoryFixture(
      'duetkit-act-nightly-',
      { '.github/workflows/nightly.yml': nightlyWorkflow() },
      async ({ dist, remote }) => {
        // 40 earlier nights of the suite, a 12% regression of one benchmark 10 nights ago
        const start = new Date(Date.now() - 41 * 86_400_000).toISOString().slice(0, 10);
        const earlier = plantedHistory({
          runs: 40,
          seed: 5,
          suite: 'nightly',
          start: `${start}T03:17:00Z`,
          step: { at: 30, size: 0.12 },
          aa: { mde: 0.01, falsePositive: 0 },
        }).map((entry) => ({
          path: entryPath(entry.suite, entry.runId, entry.run.startedAt),
          entry,
        }));
        await writeHistory(remote, earlier, await readDashboard(path.join(dist, 'dashboard')), {
          derivers: VARIABILITY_HISTORY.derivers,
        });
      },
    );
    ({ repo, remote, github } = fixture);
  });
  afterAll(() => fixture?.close());

  // each scheduled run is a new workflow run (a new run id: a new entry)
  const night = (runId: string) => fixture.act(scheduledNight(runId, 240_000));

  it('publishes the A/A run, renders the report and alerts once across two nights', async () => {
    const first = await night('7001');
    expect(first.output).toContain('Job succeeded');
    expect(first.code).toBe(0);
    let read = await readHistory({ remote, suite: 'nightly' });
    expect(read.entries).toHaveLength(41);
    const tonight = read.entries.at(-1)!;
    expect(tonight).toMatchObject({ run: { event: 'schedule' }, commit: { id: repo.mainTip } });
    expect(tonight.aa).toMatchObject({ schemaVersion: 1, mode: 'duet', comparisons: 2 });
    const aa = tonight.aa as { benchmarks: { name: string; ciWidth: number; mde: number }[] };
    expect(aa.benchmarks.map((b) => b.name)).toContain('parse');
    for (const b of aa.benchmarks) expect(b.ciWidth).toBeGreaterThan(0);
    expect(tonight.benchmarks.every((b) => b.comparison === null)).toBe(true);
    expect(first.output).toMatch(/## duetkit variability: nightly/);
    expect(first.output).toMatch(/🔴 regression \+1\d\.\d\d% .* between runs run-0029/);
    expect(github.issues.size).toBe(1);

    let steps = await readHistory({ remote, suite: 'nightly-steps' });
    expect(steps.entries).toHaveLength(1);
    expect(first.output).toContain('base-from-history: no earlier complete run of "nightly-steps"');
    expect(steps.entries[0]!.aa).toMatchObject({ schemaVersion: 1, comparisons: 2 });

    // a slowdown lands on main between the nights
    execFileSync('git', ['merge', '-q', '--no-edit', repo.slow], { cwd: repo.dir });
    const landed = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo.dir, encoding: 'utf8' });
    const second = await night('7002');
    expect(second.code).toBe(0);
    read = await readHistory({ remote, suite: 'nightly' });
    expect(read.entries).toHaveLength(42);
    steps = await readHistory({ remote, suite: 'nightly-steps' });
    expect(steps.entries).toHaveLength(2);
    const judged = steps.entries[1]!;
    expect(judged.commit?.id).toBe(landed.trim());
    expect(judged.aa).toBeUndefined();
    const parse = judged.benchmarks.find((b) => b.name === 'parse')!;
    expect(parse.comparison).toMatchObject({ baseCommit: repo.mainTip, verdict: 'regression' });
    expect(parse.comparison!.change).toBeGreaterThan(0.1);
    expect(second.output).toContain(`base-from-history: the commit of run 7001-1`);
    expect(second.output).toMatch(/### Steps judged within one run/);
    expect(second.output).toMatch(/\*\*parse\*\* 🔴 regression \+1\d\.\d\d% .* in run 7002-1 /);
    // one issue per suite, each created once: nightly's change point, nightly-steps' step
    expect(github.issues.size).toBe(2);
    expect(github.requests.filter((r) => r.operationId === 'issues/create')).toHaveLength(2);
    expect(github.problems()).toEqual([]);
    // the dashboard's variability data came with the publish
    const files = execFileSync('git', ['ls-tree', '-r', '--name-only', 'gh-pages'], {
      cwd: remote,
      encoding: 'utf8',
    });
    expect(files).toMatch(/duetkit\/data\/nightly-[0-9a-f]{8}\/variability\.json/);
  });
});
