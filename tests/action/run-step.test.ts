import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseInputs, type RunInputs } from '../../src/action/inputs.js';
import type { ActionIo } from '../../src/action/io.js';
import { runStep } from '../../src/action/run-step.js';
import { ROOT } from '../support/bundle-action.js';

const io: ActionIo = {
  info: () => undefined,
  notice: () => undefined,
  warning: () => undefined,
  setOutput: () => undefined,
  appendSummary: async () => undefined,
  saveState: () => undefined,
};

describe('runStep with base-from-history', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'duetkit-run-step-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('on a pull request it is refused, naming the input and the event, before anything runs', async () => {
    const event = path.join(dir, 'event.json');
    writeFileSync(
      event,
      JSON.stringify({
        number: 7,
        pull_request: {
          number: 7,
          head: { sha: 'b'.repeat(40), ref: 'f', repo: { full_name: 'octo/bench' } },
          base: { sha: 'a'.repeat(40), ref: 'main', repo: { full_name: 'octo/bench' } },
        },
      }),
    );
    const inputs = parseInputs(
      (name) =>
        ({ scenario: 'scenarios/dogfood-stats.yml', 'base-from-history': 'true' })[name] ?? '',
      ROOT,
    ) as RunInputs;
    await expect(
      runStep(inputs, {
        io,
        env: {
          GITHUB_EVENT_NAME: 'pull_request',
          GITHUB_EVENT_PATH: event,
          GITHUB_REPOSITORY: 'octo/bench',
          RUNNER_TEMP: dir,
        },
        signal: new AbortController().signal,
        api: () => {
          throw new Error('no API call expected');
        },
      }),
    ).rejects.toThrow(
      'Input "base-from-history": true is for runs of a branch (schedule, workflow_dispatch, push), whose runs the history keeps; on "pull_request" the base is the PR\'s merge base: remove it',
    );
  });
});
