import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { previousRunFromHistory, publishToHistory } from '../../src/action/history-step.js';
import { commitOf, plantedHistory } from '../../benchmarks/variability/history.js';
import { pushHistory } from '../variability/helpers.js';
import type { HistoryInputs } from '../../src/action/history-inputs.js';
import type { ActionIo } from '../../src/action/io.js';
import type { GitHubEvent } from '../../src/github/event.js';
import { readHistory } from '../../src/history/read.js';
import { bareRemote, git, makeRunRepo, tempDir } from '../history/helpers.js';

function fakeIo(): ActionIo & { lines: string[]; outputs: Record<string, string | number> } {
  const io = {
    lines: [] as string[],
    outputs: {} as Record<string, string | number>,
    info: (m: string) => void io.lines.push(`info: ${m}`),
    notice: (m: string) => void io.lines.push(`notice: ${m}`),
    warning: (m: string) => void io.lines.push(`warning: ${m}`),
    setOutput: (n: string, v: string | number) => void (io.outputs[n] = v),
    appendSummary: async () => undefined,
    saveState: () => undefined,
  };
  return io;
}

const event = (name: string): GitHubEvent => ({
  name,
  payload: {},
  repository: { owner: 'octo', repo: 'bench' },
  sha: null,
});

describe('publishToHistory (the action step after a run)', () => {
  let t: ReturnType<typeof tempDir>;
  let repo: string;
  beforeAll(async () => {
    t = tempDir('duetkit-history-step-');
    repo = await makeRunRepo(t.dir);
  });
  afterAll(() => t.cleanup());

  const inputs = (repository: string): HistoryInputs => ({
    publish: 'history',
    branch: 'gh-pages',
    path: 'duetkit',
    repository,
    token: '',
    retention: { keepRuns: 1 },
  });
  const env = {
    GITHUB_RUN_ID: '77',
    GITHUB_RUN_ATTEMPT: '2',
    GITHUB_REPOSITORY: 'octo/bench',
    GITHUB_EVENT_NAME: 'schedule',
  };
  const run = () => ({ resultsDir: path.join(repo, 'out'), suite: 'nightly', repoDir: repo });

  it('schedule: published under the run id and attempt; retention applies', async () => {
    const remote = bareRemote(t.dir);
    const io = fakeIo();
    expect(
      await publishToHistory(
        { inputs: inputs(remote), githubToken: 'ghs_fake_token_for_tests', env },
        event('schedule'),
        run(),
        io,
      ),
    ).toBeNull();
    expect(io.outputs['history-entry']).toMatch(
      /^duetkit\/entries\/nightly-[0-9a-f]{8}\/.*-77-2\.json$/,
    );
    expect(io.outputs['dashboard-url']).toBe('');
    const read = await readHistory({ remote });
    expect(read.entries.map((e) => [e.suite, e.runId, e.run.event, e.commit?.message])).toEqual([
      ['nightly', '77-2', 'schedule', 'Make parse slower'],
    ]);
    // The same run again (a retried job): nothing new.
    const again = fakeIo();
    await publishToHistory(
      { inputs: inputs(remote), githubToken: 'ghs_fake_token_for_tests', env },
      event('schedule'),
      run(),
      again,
    );
    expect(again.lines).toContainEqual(
      expect.stringMatching(/^info: history: this run is already in gh-pages/),
    );
    expect(git(remote, 'rev-list', '--count', 'gh-pages')).toBe('1');
  });

  it('a pull request or another event: nothing published', async () => {
    const remote = bareRemote(t.dir, 'untouched.git');
    for (const name of ['pull_request', 'pull_request_target', 'workflow_run']) {
      const io = fakeIo();
      expect(
        await publishToHistory(
          { inputs: inputs(remote), githubToken: 'ghs_fake_token_for_tests', env },
          event(name),
          run(),
          io,
        ),
      ).toBeNull();
      expect(io.lines).toEqual([
        `info: history: not published, "${name}" is not push, schedule, workflow_dispatch (pull requests never write to the history)`,
      ]);
    }
    expect(git(remote, 'for-each-ref')).toBe('');
  });

  it('a token that may not push is a warning, not a failure; another refusal fails the step', async () => {
    const denying = bareRemote(t.dir, 'denying.git');
    writeFileSync(
      path.join(denying, 'hooks', 'pre-receive'),
      '#!/bin/sh\necho "Permission to octo/bench.git denied to github-actions[bot]." >&2\nexit 1\n',
      { mode: 0o755 },
    );
    const io = fakeIo();
    expect(
      await publishToHistory(
        { inputs: inputs(denying), githubToken: 'ghs_fake_token_for_tests', env },
        event('push'),
        run(),
        io,
      ),
    ).toBeNull();
    expect(io.lines.at(-1)).toMatch(
      /^warning: history: run 77-2 of suite "nightly" was not published: the token may not push .*Permission to octo\/bench\.git denied.*contents: write/s,
    );
    const protectedRemote = bareRemote(t.dir, 'protected.git');
    writeFileSync(
      path.join(protectedRemote, 'hooks', 'pre-receive'),
      '#!/bin/sh\necho "GH006: Protected branch update failed" >&2\nexit 1\n',
      { mode: 0o755 },
    );
    const failure = await publishToHistory(
      { inputs: inputs(protectedRemote), githubToken: 'ghs_fake_token_for_tests', env },
      event('push'),
      run(),
      fakeIo(),
    );
    expect(failure).toMatch(
      /^duetkit history: run 77-2 of suite "nightly" was not published: .*GH006.*Its results are still in .*\/out/s,
    );
    // No token for an https remote: a warning, nothing attempted.
    const none = fakeIo();
    await publishToHistory(
      { inputs: { ...inputs('octo/bench'), repository: null }, githubToken: '', env },
      event('push'),
      run(),
      none,
    );
    expect(none.lines).toEqual([
      expect.stringMatching(
        /^warning: history: not published: no token to push to https:\/\/github\.com\/octo\/bench\.git/,
      ),
    ]);
  });

  it("base-from-history: the commit of the suite's newest run on the ref, null before the first", async () => {
    const remote = bareRemote(t.dir, 'previous.git');
    const where = { inputs: inputs(remote), githubToken: '', env };
    expect(await previousRunFromHistory(where, 'nightly', 'refs/heads/main', fakeIo())).toBeNull();
    pushHistory(remote, plantedHistory({ runs: 3, seed: 2 }));
    expect(
      await previousRunFromHistory(where, 'nightly', 'refs/heads/main', fakeIo()),
    ).toMatchObject({ runId: 'run-0002', commit: commitOf(2) });
    expect(await previousRunFromHistory(where, 'other', 'refs/heads/main', fakeIo())).toBeNull();
    const missing = { inputs: inputs(path.join(t.dir, 'nowhere.git')), githubToken: '', env };
    await expect(
      previousRunFromHistory(missing, 'nightly', 'refs/heads/main', fakeIo()),
    ).rejects.toThrow(
      /^Input "base-from-history": could not read the history of "nightly" from gh-pages of .*nowhere\.git: /,
    );
  });
});
