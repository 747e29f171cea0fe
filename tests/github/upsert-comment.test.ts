import { PermissionError } from '../../src/github/api.js';
import { createGitHubApi } from '../../src/github/octokit-api.js';
import { commentMarker, upsertComment } from '../../src/github/upsert-comment.js';
import { startFakeGitHub, type FakeGitHub } from '../support/fake-github.js';

const REPO = { owner: 'octo', repo: 'bench' };

describe('upsertComment through Octokit, against a fake API validated by the OpenAPI description', () => {
  let github: FakeGitHub;
  const saved = process.env.GITHUB_API_URL;
  beforeEach(async () => {
    github = await startFakeGitHub();
    process.env.GITHUB_API_URL = github.url;
  });
  afterEach(async () => {
    process.env.GITHUB_API_URL = saved;
    await github.close();
  });

  it('creates one comment, then updates the same one, never a second', async () => {
    const api = createGitHubApi('t0ken', REPO);
    github.comments.set(1, { issue: 7, body: 'an unrelated comment' });
    const options = { issue: 7, suite: 'core', policy: 'always' as const, changed: true };
    const first = await upsertComment(api, { ...options, body: 'first' });
    expect(first.action).toBe('created');
    expect(first.url).toMatch(/pull\/7#issuecomment-1000$/);
    const second = await upsertComment(api, { ...options, body: 'second' });
    expect(second).toEqual({ action: 'updated', url: first.url });
    const ours = [...github.comments.values()].filter((c) =>
      c.body.startsWith(commentMarker('core')),
    );
    expect(ours).toEqual([{ issue: 7, body: `${commentMarker('core')}\nsecond` }]);
    // Another suite gets its own comment.
    expect((await upsertComment(api, { ...options, suite: 'other', body: 'x' })).action).toBe(
      'created',
    );
    expect(github.requests.map((r) => r.operationId)).toEqual([
      'issues/list-comments',
      'issues/create-comment',
      'issues/list-comments',
      'issues/update-comment',
      'issues/list-comments',
      'issues/create-comment',
    ]);
    expect(github.problems()).toEqual([]);
  });

  it('finds its comment on a later page of a long thread', async () => {
    for (let i = 0; i < 130; i++) github.comments.set(i + 1, { issue: 3, body: `chatter ${i}` });
    github.comments.set(500, { issue: 3, body: `${commentMarker('core')}\nold` });
    const api = createGitHubApi('t0ken', REPO);
    const result = await upsertComment(api, {
      issue: 3,
      suite: 'core',
      body: 'new',
      policy: 'always',
      changed: false,
    });
    expect(result.action).toBe('updated');
    expect(github.comments.get(500)!.body).toBe(`${commentMarker('core')}\nnew`);
    expect(github.requests.filter((r) => r.operationId === 'issues/list-comments')).toHaveLength(2);
    expect(github.problems()).toEqual([]);
  });

  it('on-change: posts nothing new while unchanged, but still updates an existing comment', async () => {
    const api = createGitHubApi('t0ken', REPO);
    const base = { issue: 9, suite: 's', policy: 'on-change' as const };
    expect((await upsertComment(api, { ...base, body: 'a', changed: false })).action).toBe(
      'skipped',
    );
    expect(github.comments.size).toBe(0);
    expect((await upsertComment(api, { ...base, body: 'b', changed: true })).action).toBe(
      'created',
    );
    expect((await upsertComment(api, { ...base, body: 'c', changed: false })).action).toBe(
      'updated',
    );
    expect([...github.comments.values()][0]!.body).toMatch(/\nc$/);
  });

  it('never: makes no request at all', async () => {
    const api = createGitHubApi('t0ken', REPO);
    const result = await upsertComment(api, {
      issue: 9,
      suite: 's',
      body: 'x',
      policy: 'never',
      changed: true,
    });
    expect(result.action).toBe('skipped');
    expect(github.requests).toEqual([]);
  });

  it('turns a 403 (read-only token) into a PermissionError', async () => {
    github.options.readOnly = true;
    const api = createGitHubApi('t0ken', REPO);
    const attempt = upsertComment(api, {
      issue: 9,
      suite: 's',
      body: 'x',
      policy: 'always',
      changed: true,
    });
    await expect(attempt).rejects.toBeInstanceOf(PermissionError);
    await expect(attempt).rejects.toThrow(/403.*Resource not accessible by integration/);
  });

  it('the fake refuses requests that do not match the description', async () => {
    const response = await fetch(`${github.url}/repos/o/r/issues/1/comments`, {
      method: 'POST',
      headers: { authorization: 'token x', 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'wrong field' }),
    });
    expect(response.status).toBe(422);
    expect(github.problems().join('\n')).toMatch(/body .*must have required property 'body'/);
    await fetch(`${github.url}/repos/o/r/issues/abc/comments?bogus=1`, {
      headers: { authorization: 'token x' },
    });
    expect(github.problems().join('\n')).toMatch(/path issue_number: .*must be integer/);
    expect(github.problems().join('\n')).toMatch(/undeclared query parameter bogus/);
  });
});
