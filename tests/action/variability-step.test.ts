import { readFileSync } from 'node:fs';
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

const parse = (inputs: Record<string, string>) =>
  parseInputs((name) => inputs[name] ?? '', '/work/repo');

function recordingIo(): ActionIo & {
  summary: string;
  outputs: Record<string, string | number>;
  warnings: string[];
} {
  const io = {
    summary: '',
    outputs: {} as Record<string, string | number>,
    warnings: [] as string[],
    info: () => undefined,
    notice: () => undefined,
    warning: (m: string) => void io.warnings.push(m),
    setOutput: (n: string, v: string | number) => void (io.outputs[n] = v),
    appendSummary: async (m: string) => void (io.summary += m),
    saveState: () => undefined,
  };
  return io;
}

describe('action inputs for nightly variability', () => {
  it('mode: variability reads its own inputs, with defaults', () => {
    expect(parse({ mode: 'variability', 'github-token': 't' })).toEqual({
      mode: 'variability',
      history: expect.objectContaining({ branch: 'gh-pages', path: 'duetkit', repository: null }),
      suite: null,
      since: { days: 90 },
      alert: 'none',
      token: 't',
      workingDirectory: '/work/repo',
      resultsDirectory: null,
      bisect: null,
    });
    expect(
      parse({ mode: 'variability', since: '12w', alert: 'issue', name: 'nightly' }),
    ).toMatchObject({
      since: { days: 84 },
      alert: 'issue',
      suite: 'nightly',
    });
  });

  it('bisect: true takes the workload to bisect with, and needs the alert issue', () => {
    expect(
      parse({
        mode: 'variability',
        alert: 'issue',
        bisect: 'true',
        scenario: 'scenarios/pr.yml',
        'bisect-budget': '10',
      }),
    ).toMatchObject({
      bisect: {
        scenario: 'scenarios/pr.yml',
        run: null,
        setup: null,
        benchmark: null,
        threshold: null,
        budget: 10,
        iterations: null,
        firstParent: true,
      },
    });
    expect(() => parse({ mode: 'variability', bisect: 'true', run: 'make bench' })).toThrow(
      'Input "bisect": true bisects the steps the alert issue announces: set alert: issue as well',
    );
    expect(() => parse({ mode: 'variability', alert: 'issue', bisect: 'true' })).toThrow(
      'Input "run": required with bisect: true when there is no "scenario"',
    );
    expect(() => parse({ mode: 'variability', bisect: 'on' })).toThrow(
      'Input "bisect": got "on"; accepted: true, false',
    );
  });

  it('names bad values and inputs that make no sense together', () => {
    expect(() => parse({ mode: 'variability', since: 'soon' })).toThrow(
      'Input "since": got "soon"; expected all, days or weeks like 90d or 12w, or a date like 2026-01-31',
    );
    expect(() => parse({ mode: 'variability', alert: 'slack' })).toThrow(
      'Input "alert": got "slack"; accepted: none, issue',
    );
    expect(() => parse({ mode: 'variability', run: 'make bench' })).toThrow(
      /Input "run": has no effect with mode: variability/,
    );
    expect(parse({ run: 'make bench', aa: 'true' })).toMatchObject({ aa: true, baseRef: null });
    expect(() => parse({ run: 'x', aa: 'true', 'base-ref': 'main' })).toThrow(
      'Input "aa": true compares the head with itself: remove "base-ref"',
    );
    expect(() => parse({ run: 'x', aa: 'yes' })).toThrow(
      'Input "aa": got "yes"; accepted: true, false',
    );
    expect(parse({ run: 'make bench', 'base-from-history': 'true' })).toMatchObject({
      baseFromHistory: true,
      aa: false,
      baseRef: null,
    });
    expect(parse({ run: 'make bench' })).toMatchObject({ baseFromHistory: false });
    expect(() => parse({ run: 'x', 'base-from-history': 'on' })).toThrow(
      'Input "base-from-history": got "on"; accepted: true, false',
    );
    expect(() => parse({ run: 'x', 'base-from-history': 'true', 'base-ref': 'main' })).toThrow(
      'Input "base-from-history": true takes the base from the history: remove "base-ref"',
    );
    expect(() => parse({ run: 'x', 'base-from-history': 'true', aa: 'true' })).toThrow(
      /Input "base-from-history": true compares with the previous run, "aa: true" with the head itself/,
    );
    expect(() => parse({ mode: 'variability', 'base-from-history': 'true' })).toThrow(
      /Input "base-from-history": has no effect with mode: variability/,
    );
  });
});

describe('variabilityStep', () => {
  const tmp = tempDir('duetkit-variability-step-');
  afterAll(() => tmp.cleanup());

  it('writes the report to the summary and results, sets outputs, and alerts once', async () => {
    const remote = bareRemote(tmp.dir);
    const entries = plantedHistory({
      runs: 50,
      seed: 7,
      start: '2026-03-01T03:00:00Z',
      step: { at: 35, size: 0.07 },
      aa: { mde: 0.01, falsePositive: 0 },
    });
    pushHistory(remote, entries);
    const github = await startFakeGitHub();
    const saved = process.env.GITHUB_API_URL;
    process.env.GITHUB_API_URL = github.url;
    try {
      const inputs: VariabilityInputs = {
        ...(parse({
          mode: 'variability',
          'github-token': 't',
          alert: 'issue',
          'history-repository': remote,
        }) as VariabilityInputs),
        workingDirectory: tmp.dir,
        resultsDirectory: path.join(tmp.dir, 'out'),
      };
      const env = { GITHUB_REPOSITORY: 'acme/app', RUNNER_TEMP: tmp.dir };
      const now = () => new Date('2026-04-20T05:00:00Z');
      for (let night = 0; night < 2; night++) {
        const io = recordingIo();
        expect(await variabilityStep(inputs, { io, env, now, issues: createIssueApi })).toBeNull();
        expect(io.summary).toMatch(
          /## duetkit variability: nightly\n\n50 runs from 2026-03-01 to 2026-04-19\./,
        );
        expect(io.outputs).toMatchObject({
          'change-points': 1,
          'aa-called-changed': 0,
          'steps-called': 0,
        });
        const json = JSON.parse(readFileSync(String(io.outputs['variability-path']), 'utf8')) as {
          schemaVersion: number;
        };
        expect(json.schemaVersion).toBe(1);
      }
      expect(github.issues.size).toBe(1);
      expect(github.problems()).toEqual([]);
    } finally {
      process.env.GITHUB_API_URL = saved;
      await github.close();
    }
  });

  it('a read-only token warns and the step still succeeds', async () => {
    const remote = bareRemote(tmp.dir, 'ro.git');
    const entries = plantedHistory({
      runs: 30,
      seed: 2,
      start: '2026-03-20T03:00:00Z',
      step: { at: 20, size: 0.1 },
    });
    pushHistory(remote, entries);
    const github = await startFakeGitHub({ readOnly: true });
    const saved = process.env.GITHUB_API_URL;
    process.env.GITHUB_API_URL = github.url;
    try {
      const io = recordingIo();
      const inputs = {
        ...(parse({
          mode: 'variability',
          'github-token': 't',
          alert: 'issue',
          'history-repository': remote,
        }) as VariabilityInputs),
        workingDirectory: tmp.dir,
        resultsDirectory: path.join(tmp.dir, 'ro'),
      };
      expect(
        await variabilityStep(inputs, {
          io,
          env: { GITHUB_REPOSITORY: 'acme/app' },
          now: () => new Date('2026-04-20T05:00:00Z'),
        }),
      ).toBeNull();
      expect(io.warnings.join('\n')).toMatch(/needs "issues: write".*no alert issue for nightly/);
    } finally {
      process.env.GITHUB_API_URL = saved;
      await github.close();
    }
  });
});
