import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  pullRequestOf,
  readEvent,
  workflowRunOf,
  type GitHubEvent,
} from '../../src/github/event.js';

const event = (name: string, payload: Record<string, unknown>): GitHubEvent => ({
  name,
  payload,
  repository: null,
  sha: null,
});
const pr = (headRepo: unknown) => ({
  number: 8,
  pull_request: {
    number: 8,
    base: { sha: 'b', ref: 'main', repo: { full_name: 'octo/x' } },
    head: { sha: 'h', ref: 'f', repo: headRepo },
  },
});

describe('events', () => {
  it('reads the runner environment and the payload file', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'duetkit-event-'));
    const file = path.join(dir, 'event.json');
    writeFileSync(file, JSON.stringify(pr({ full_name: 'octo/x' })));
    const read = await readEvent({
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: file,
      GITHUB_REPOSITORY: 'octo/x',
      GITHUB_SHA: 'm',
    });
    expect(read).toMatchObject({
      name: 'pull_request',
      repository: { owner: 'octo', repo: 'x' },
      sha: 'm',
    });
    expect(pullRequestOf(read)).toEqual({
      number: 8,
      baseRef: 'main',
      baseSha: 'b',
      headSha: 'h',
      fork: false,
    });
    writeFileSync(file, '{not json');
    await expect(readEvent({ GITHUB_EVENT_PATH: file })).rejects.toThrow(
      /cannot read the event payload/,
    );
    expect(await readEvent({})).toEqual({ name: '', payload: {}, repository: null, sha: null });
    rmSync(dir, { recursive: true, force: true });
  });

  it('tells a fork PR (or one whose fork was deleted) from a same-repository PR', () => {
    expect(pullRequestOf(event('pull_request', pr({ full_name: 'octo/x' })))?.fork).toBe(false);
    expect(pullRequestOf(event('pull_request', pr({ full_name: 'eve/x' })))?.fork).toBe(true);
    expect(pullRequestOf(event('pull_request', pr(null)))?.fork).toBe(true);
    expect(pullRequestOf(event('push', { after: 'x' }))).toBeNull();
  });

  it('reads the workflow_run that triggered the comment workflow', () => {
    expect(
      workflowRunOf(
        event('workflow_run', { workflow_run: { head_sha: 'h', event: 'pull_request' } }),
      ),
    ).toEqual({
      headSha: 'h',
      event: 'pull_request',
    });
    expect(workflowRunOf(event('pull_request', { workflow_run: { head_sha: 'h' } }))).toBeNull();
  });
});
