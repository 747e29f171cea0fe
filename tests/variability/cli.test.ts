import { plantedHistory } from '../../benchmarks/variability/history.js';
import type { VariabilityReport } from '../../src/variability/analyze.js';
import { runCli } from '../helpers/cli.js';
import { bareRemote, git, tempDir } from '../history/helpers.js';
import { pushHistory } from './helpers.js';

describe('duetkit variability --remote (a real bare repository)', () => {
  const tmp = tempDir('duetkit-variability-cli-');
  afterAll(() => tmp.cleanup());
  const remote = bareRemote(tmp.dir);
  // a project repository whose commits the history's runs measured
  const repo = `${tmp.dir}/project`;
  git(tmp.dir, 'init', '-q', '-b', 'main', repo);
  const commits: string[] = [];
  for (let i = 0; i < 50; i++) {
    git(
      repo,
      'commit',
      '-q',
      '--allow-empty',
      '-m',
      i === 35 ? 'Make parsing slower (#42)' : `commit ${i}`,
    );
    commits.push(git(repo, 'rev-parse', 'HEAD'));
  }
  const entries = plantedHistory({
    runs: 50,
    seed: 21,
    step: { at: 35, size: 0.06 },
    aa: { mde: 0.01, falsePositive: 0 },
  }).map((e, i) => ({ ...e, commit: { ...e.commit!, id: commits[i]!, url: null } }));
  pushHistory(remote, entries, {
    'duetkit/entries/nightly/2026-02/20260201T000000Z-broken.json':
      '{"schemaVersion": 1, "suite": ',
  });

  it('reports the step with the commit that caused it, and the corrupt file it skipped', async () => {
    const r = await runCli(['variability', '--remote', remote, '--repo', repo, '--seed', '3']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      /## duetkit variability: nightly\n\n50 runs from 2026-01-05 to 2026-02-23\./,
    );
    expect(r.out).toMatch(
      /🔴 regression \+[\d.]+% \[\+[\d.]+%, \+[\d.]+%\] between runs run-0034 \(2026-02-08\) and run-0035/,
    );
    expect(r.out).toMatch(/1 commit\(s\): #42/);
    expect(r.out).toMatch(
      /- skipped duetkit\/entries\/nightly\/2026-02\/20260201T000000Z-broken\.json: not JSON/,
    );
  });

  it('--json --suite --since: the report JSON, only the runs asked for', async () => {
    const r = await runCli([
      'variability',
      '--remote',
      remote,
      '--suite',
      'nightly',
      '--since',
      '2026-02-01',
      '--json',
    ]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as VariabilityReport;
    expect(report.schemaVersion).toBe(1);
    expect(report.settings.since).toBe('2026-02-01T00:00:00.000Z');
    expect(report.suites[0]!.runs).toBe(23);
    expect(report.suites[0]!.aa!.calledChanged).toBe(0);
    // without --repo the current directory has none of these commits: said, not hidden
    expect(report.warnings.join('\n')).toMatch(/are not in this repository .*listed without them/);
  });

  it('an empty remote is an empty report, and bad options are named', async () => {
    const empty = bareRemote(tmp.dir, 'empty.git');
    const r = await runCli(['variability', '--remote', empty]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/No runs in the history/);
    expect(r.err).toMatch(/has no history branch gh-pages yet/);
    const bad = await runCli(['variability', '--remote', empty, '--since', 'yesterday']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain(
      `option '--since <when>' argument 'yesterday' is invalid. got "yesterday"; expected all, days or weeks like 90d or 12w, or a date like 2026-01-31`,
    );
    // `all`, as the action's `since` input takes it (docs/variability.md)
    const all = await runCli(['variability', '--remote', empty, '--since', 'all']);
    expect(all.code).toBe(0);
    expect(all.out).toMatch(/No runs in the history/);
  });
});
