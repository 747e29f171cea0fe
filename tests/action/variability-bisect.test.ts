import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { plantedHistory } from '../../benchmarks/variability/history.js';
import { parseInputs } from '../../src/action/inputs.js';
import type { ActionIo } from '../../src/action/io.js';
import { variabilityStep } from '../../src/action/variability-step.js';
import type { VariabilityInputs } from '../../src/action/variability-inputs.js';
import { createIssueApi } from '../../src/variability/issue-api.js';
import { bareRemote, tempDir } from '../history/helpers.js';
import { startFakeGitHub } from '../support/fake-github.js';
import { pushHistory } from '../variability/helpers.js';

const io = (): ActionIo & { warnings: string[] } => {
  const out = {
    warnings: [] as string[],
    info: () => undefined,
    notice: () => undefined,
    warning: (m: string) => void out.warnings.push(m),
    setOutput: () => undefined,
    appendSummary: async () => undefined,
    saveState: () => undefined,
  };
  return out;
};

/**
 * The nightly with `bisect: true`, all real but GitHub: a repository of 31 commits whose
 * program sleeps 20 ms until commit 20 and 26 ms from commit 21 on; a history of 16 nightly
 * runs, one every second commit, values planted with the step at run 11 (commit 22). The
 * change point's range is commits 20..22; the bisection's duets must name commit 21.
 */
describe('the nightly with bisect: true names the culprit in the alert issue', () => {
  const tmp = tempDir('duetkit-variability-bisect-');
  afterAll(() => tmp.cleanup());

  it('bisects the new change point and writes culprit, link and interval into the issue', async () => {
    const repo = path.join(tmp.dir, 'app');
    const git = (...args: string[]) =>
      execFileSync('git', args, { cwd: repo, stdio: 'pipe' }).toString().trim();
    execFileSync('git', ['init', '-q', '-b', 'main', repo]);
    git('config', 'user.email', 'test@example.com');
    git('config', 'user.name', 'test');
    writeFileSync(path.join(repo, 'bench.sh'), 'sleep "$(cat delay.txt)"\n');
    for (let i = 0; i <= 30; i++) {
      writeFileSync(path.join(repo, 'delay.txt'), i >= 21 ? '0.026\n' : '0.020\n');
      writeFileSync(path.join(repo, 'notes.txt'), `${i}\n`);
      git('add', '.');
      git('commit', '-q', '-m', `change ${i} (#${100 + i})`);
    }
    const commits = git('rev-list', '--reverse', 'HEAD').split('\n');
    const entries = plantedHistory({
      runs: 16,
      seed: 3,
      cv: 0.01,
      start: '2026-03-01T03:00:00Z',
      step: { at: 11, size: 0.3 },
      benchmark: 'wall-time',
    }).map((e, i) => ({
      ...e,
      commit: {
        ...e.commit!,
        id: commits[2 * i]!,
        message: `change ${2 * i} (#${100 + 2 * i})`,
        url: `https://github.com/acme/app/commit/${commits[2 * i]}`,
      },
    }));
    const remote = bareRemote(tmp.dir);
    pushHistory(remote, entries);
    const github = await startFakeGitHub();
    const saved = process.env.GITHUB_API_URL;
    process.env.GITHUB_API_URL = github.url;
    try {
      const inputs: VariabilityInputs = {
        ...(parseInputs(
          (name) =>
            ({
              mode: 'variability',
              'github-token': 't',
              alert: 'issue',
              'history-repository': remote,
              bisect: 'true',
              run: 'sh bench.sh',
              iterations: '15',
            })[name] ?? '',
          repo,
        ) as VariabilityInputs),
        resultsDirectory: path.join(tmp.dir, 'out'),
      };
      const env = { ...process.env, GITHUB_REPOSITORY: 'acme/app', RUNNER_TEMP: tmp.dir };
      const log = io();
      const now = () => new Date('2026-03-17T05:00:00Z');
      expect(
        await variabilityStep(inputs, { io: log, env, now, issues: createIssueApi }),
      ).toBeNull();
      expect(log.warnings).toEqual([]);
      expect(github.issues.size).toBe(1);
      const issue = [...github.issues.values()][0]!;
      // The culprit is the product's answer; how many duets it took (3, or 4 when a busy
      // machine leaves a probe unclear, after the 2 that chose the design) and the
      // confirmation's exact interval are the noise's.
      const c21 = commits[21]!;
      const line = issue.body.split('\n').find((l) => l.startsWith('  - bisect ('));
      expect(line).toBeDefined();
      expect(line).toMatch(/^ {2}- bisect \([56] duets\): culprit /);
      expect(line).toContain(
        `culprit [\`${c21.slice(0, 10)}\`](https://github.com/acme/app/commit/${c21}) change 21 (#121); confirmation \`${commits[20]!.slice(0, 10)}\` → \`${c21.slice(0, 10)}\`: +`,
      );
      expect(line).toMatch(
        /→ `\w{10}`: \+\d+\.\d\d% \[[+-]\d+\.\d\d%, \+\d+\.\d\d%\] \(99% CI, \d+ pairs\)/,
      );
      expect(github.problems()).toEqual([]);
    } finally {
      process.env.GITHUB_API_URL = saved;
      await github.close();
    }
  }, 120_000);
});
