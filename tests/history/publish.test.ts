import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SuiteIndex, SuitesFile, MonthRuns, MonthSeries } from '../../src/history/derive.js';
import { entryPath, suiteKey } from '../../src/history/layout.js';
import { pruneHistory } from '../../src/history/prune.js';
import { publishEntry } from '../../src/history/publish.js';
import { PublishError, pushWithRetries } from '../../src/history/push-loop.js';
import { openLocation, readHistory } from '../../src/history/read.js';
import { suiteChanges, type Deriver } from '../../src/history/store.js';
import { bareRemote, branchFiles, git, makeEntry, pushFiles, tempDir } from './helpers.js';

const dashboard = new Map([['index.html', Buffer.from('<!doctype html><title>d</title>')]]);

describe('publishEntry on real bare repositories', () => {
  let t: ReturnType<typeof tempDir>;
  let remote: string;
  beforeEach(() => {
    t = tempDir();
    remote = bareRemote(t.dir);
  });
  afterEach(() => t.cleanup());

  const publish = (entry = makeEntry(), extra: Partial<Parameters<typeof publishEntry>[0]> = {}) =>
    publishEntry({ remote, entry, dashboard, ...extra });

  it('creates the branch as an orphan, then appends; derived files follow the entries', async () => {
    // The repository has other branches: the history branch starts with no parent anyway.
    pushFiles(remote, 'main', { 'README.md': 'code' });
    const first = await publish(makeEntry({ runId: '100-1', values: { parse: 100, render: 50 } }));
    expect(first).toMatchObject({ status: 'published', attempts: 1, retries: 0 });
    expect(first.path).toBe(`duetkit/${entryPath('micro', '100-1', '2026-03-01T12:00:00.000Z')}`);
    expect(git(remote, 'rev-list', '--count', 'gh-pages')).toBe('1');
    const second = await publish(
      makeEntry({
        runId: '101-1',
        startedAt: '2026-04-02T08:00:00Z',
        values: { parse: 110, sort: 7 },
        change: 0.1,
        verdict: 'regression',
      }),
    );
    expect(second.status).toBe('published');
    expect(git(remote, 'rev-list', '--count', 'gh-pages')).toBe('2');

    const files = branchFiles(remote, 'gh-pages');
    const key = suiteKey('micro');
    expect(files.get('duetkit/index.html')).toContain('<title>d</title>');
    const suites = JSON.parse(files.get('duetkit/suites.json')!) as SuitesFile;
    expect(suites.suites).toEqual([
      {
        name: 'micro',
        key,
        runs: 2,
        benchmarks: 2,
        first: Date.parse('2026-03-01T12:00:00Z'),
        last: Date.parse('2026-04-02T08:00:00Z'),
      },
    ]);
    const index = JSON.parse(files.get(`duetkit/data/${key}/index.json`)!) as SuiteIndex;
    expect(index.runs).toBe(2);
    expect(index.months).toEqual([
      { month: '2026-03', runs: 1 },
      { month: '2026-04', runs: 1 },
    ]);
    // Sorted by "most changed recently": the regression first.
    expect(index.benchmarks.map((b) => b.name)).toEqual(['parse', 'sort', 'render']);
    expect(index.benchmarks[0]).toMatchObject({
      spark: [100, 110],
      last: { c: 0.1, k: 1 },
      moved: { called: true },
    });
    expect(index.benchmarks.find((b) => b.name === 'render')!.spark).toEqual([50, null]);
    expect(index.recent.map((r) => r.benchmark).sort()).toEqual(['parse', 'sort']);
    const april = JSON.parse(files.get(`duetkit/data/${key}/2026-04/runs.json`)!) as MonthRuns;
    expect(april.runs.map((r) => r.id)).toEqual(['101-1']);
    const parseKey = index.benchmarks[0]!.key;
    const series = JSON.parse(
      files.get(`duetkit/data/${key}/2026-04/${parseKey}.json`)!,
    ) as MonthSeries;
    expect(series).toMatchObject({ name: 'parse', r: [0], v: [110], c: [0.1], k: [1] });
    expect(JSON.parse(files.get(`duetkit/data/${key}/latest.json`)!).runId).toBe('101-1');
  });

  it('publishing the same run id again is a no-op', async () => {
    await publish(makeEntry({ runId: '7-1' }));
    const tip = git(remote, 'rev-parse', 'gh-pages');
    // Same id, even with other values and time: nothing is added.
    const again = await publish(makeEntry({ runId: '7-1', startedAt: '2026-05-01T00:00:00Z' }));
    expect(again.status).toBe('already');
    expect(git(remote, 'rev-parse', 'gh-pages')).toBe(tip);
    expect((await readHistory({ remote })).entries).toHaveLength(1);
  });

  it('a corrupt entry on the branch is skipped with a warning that names it; publishing still works', async () => {
    await publish(makeEntry({ runId: 'a' }));
    const bad = `duetkit/${entryPath('micro', 'bad', '2026-03-01T13:00:00Z')}`;
    pushFiles(remote, 'gh-pages', { [bad]: '{"schemaVersion":1,"suite":"micro","runId":"bad"}' });
    const result = await publish(makeEntry({ runId: 'b', startedAt: '2026-03-01T14:00:00Z' }));
    expect(result.status).toBe('published');
    expect(result.warnings).toEqual([expect.stringContaining(`skipped ${bad}: recordedAt`)]);
    const index = JSON.parse(
      branchFiles(remote, 'gh-pages').get(`duetkit/data/${suiteKey('micro')}/index.json`)!,
    ) as SuiteIndex;
    expect(index.benchmarks[0]!.spark).toEqual([100, 100]);
    // The corrupt file stays: it is the team's data, not ours to delete.
    expect(branchFiles(remote, 'gh-pages').has(bad)).toBe(true);
  });

  it('a remote that refuses pushes: a clear error and the branch untouched', async () => {
    await publish(makeEntry({ runId: 'a' }));
    const tip = git(remote, 'rev-parse', 'gh-pages');
    const hook = path.join(remote, 'hooks', 'pre-receive');
    writeFileSync(
      hook,
      '#!/bin/sh\necho "GH006: Protected branch update failed for refs/heads/gh-pages." >&2\nexit 1\n',
    );
    chmodSync(hook, 0o755);
    const error = await publish(makeEntry({ runId: 'b' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PublishError);
    expect((error as PublishError).kind).toBe('rejected');
    expect((error as Error).message).toMatch(
      /remote\.git \(branch gh-pages\) refused the push: .*GH006: Protected branch/s,
    );
    expect(git(remote, 'rev-parse', 'gh-pages')).toBe(tip);
    expect(git(remote, 'for-each-ref').split('\n')).toHaveLength(1);
  });

  it('a push that loses a race is fetched and re-applied on top of the other writer', async () => {
    await publish(makeEntry({ runId: 'a' }));
    const other = makeEntry({ runId: 'other', startedAt: '2026-03-01T12:30:00Z' });
    const mine = makeEntry({ runId: 'b', startedAt: '2026-03-01T13:00:00Z' });
    const branch = await openLocation({ remote });
    const logged: string[] = [];
    try {
      let built = 0;
      const done = await pushWithRetries(
        branch,
        async (tip) => {
          const edit = await suiteChanges(branch, tip, 'duetkit', {
            suite: 'micro',
            added: [{ path: entryPath('micro', 'b', mine.run.startedAt), entry: mine }],
            removed: new Set(),
          });
          const commit = await branch.commit(tip, edit.changes, 'mine');
          // Another job pushes after we fetched: our first push must lose.
          if (built++ === 0) {
            pushFiles(remote, 'gh-pages', {
              [`duetkit/${entryPath('micro', 'other', other.run.startedAt)}`]:
                JSON.stringify(other),
            });
          }
          return { commit, result: built };
        },
        { random: () => 0.5, backoff: { baseMs: 10, capMs: 10 }, log: (l) => logged.push(l) },
      );
      expect(done).toMatchObject({ attempts: 2, retries: 1, result: 2 });
    } finally {
      await branch.dispose();
    }
    expect(logged).toEqual([
      'the branch moved while publishing (attempt 1 of 30): fetching it again in 5 ms',
    ]);
    expect((await readHistory({ remote })).entries.map((e) => e.runId)).toEqual([
      'a',
      'other',
      'b',
    ]);
    // Never forced: the other writer's commit is an ancestor of the tip.
    expect(git(remote, 'log', '--format=%s', 'gh-pages')).toMatch(/^mine\ntest files\n/);
  });

  it('concurrent publishers (3 × 2 runs, at once) end with every entry and consistent derived files', async () => {
    const writers = [0, 1, 2].map(async (w) => {
      const results = [];
      for (let i = 0; i < 2; i++) {
        const startedAt = new Date(
          Date.parse('2026-03-01T00:00:00Z') + (w * 2 + i) * 3600_000,
        ).toISOString();
        results.push(
          await publish(
            makeEntry({ runId: `w${w}-${i}`, startedAt, values: { parse: 100 + w * 2 + i } }),
            {
              backoff: { baseMs: 20, capMs: 200 },
              maxAttempts: 30,
            },
          ),
        );
      }
      return results;
    });
    const results = (await Promise.all(writers)).flat();
    expect(results.every((r) => r.status === 'published')).toBe(true);
    const read = await readHistory({ remote });
    expect(read.entries).toHaveLength(6);
    const index = JSON.parse(
      branchFiles(remote, 'gh-pages').get(`duetkit/data/${suiteKey('micro')}/index.json`)!,
    ) as SuiteIndex;
    expect(index.runs).toBe(6);
    expect(index.benchmarks[0]!.spark).toEqual(read.entries.map((e) => e.benchmarks[0]!.value));
    const month = JSON.parse(
      branchFiles(remote, 'gh-pages').get(`duetkit/data/${suiteKey('micro')}/2026-03/runs.json`)!,
    ) as MonthRuns;
    expect(month.runs.map((r) => r.id)).toEqual(read.entries.map((e) => e.runId));
    expect(Number(git(remote, 'rev-list', '--count', 'gh-pages'))).toBe(6);
    // Some pushes lost a race and were re-applied (the point of the test).
    expect(results.reduce((n, r) => n + r.retries, 0)).toBeGreaterThan(0);
  });

  it('a deriver passed in adds its files to every publish', async () => {
    const derive: Deriver = async ({ suite, files, added, load }) => {
      const newest = await load(files.slice(-2));
      const ids = [...newest, ...added].map((s) => s.entry.runId);
      return new Map([[`data/${suiteKey(suite)}/extra.json`, JSON.stringify(ids)]]);
    };
    await publish(makeEntry({ runId: 'a' }), { derivers: [derive] });
    await publish(makeEntry({ runId: 'b', startedAt: '2026-03-02T00:00:00Z' }), {
      derivers: [derive],
    });
    const files = branchFiles(remote, 'gh-pages');
    expect(JSON.parse(files.get(`duetkit/data/${suiteKey('micro')}/extra.json`)!)).toEqual([
      'a',
      'b',
    ]);
  });

  it('prune keeps the newest runs, in a commit of its own; the derived files follow', async () => {
    for (let i = 0; i < 4; i++) {
      await publish(makeEntry({ runId: `r${i}`, startedAt: `2026-0${i + 1}-01T00:00:00Z` }));
    }
    const before = Number(git(remote, 'rev-list', '--count', 'gh-pages'));
    const pruned = await pruneHistory({ remote, retention: { keepRuns: 2 } });
    expect(pruned.removed).toEqual([
      `duetkit/${entryPath('micro', 'r0', '2026-01-01T00:00:00Z')}`,
      `duetkit/${entryPath('micro', 'r1', '2026-02-01T00:00:00Z')}`,
    ]);
    expect(Number(git(remote, 'rev-list', '--count', 'gh-pages'))).toBe(before + 1);
    expect(git(remote, 'log', '-1', '--format=%s', 'gh-pages')).toBe(
      'duetkit: micro: prune 2 runs (keep the newest 2 runs)',
    );
    expect((await readHistory({ remote })).entries.map((e) => e.runId)).toEqual(['r2', 'r3']);
    const files = branchFiles(remote, 'gh-pages');
    const key = suiteKey('micro');
    expect(
      [...files.keys()].filter((f) => f.includes('/2026-01/') || f.includes('/2026-02/')),
    ).toEqual([]);
    const index = JSON.parse(files.get(`duetkit/data/${key}/index.json`)!) as SuiteIndex;
    expect(index.months.map((m) => m.month)).toEqual(['2026-03', '2026-04']);
    expect(JSON.parse(files.get('duetkit/suites.json')!).suites[0].runs).toBe(2);
    // By age: everything older than 10 days before 2026-04-05.
    const byDays = await pruneHistory({
      remote,
      retention: { keepDays: 10 },
      now: Date.parse('2026-04-05T00:00:00Z'),
    });
    expect(byDays.removed).toHaveLength(1);
    expect((await readHistory({ remote })).entries.map((e) => e.runId)).toEqual(['r3']);
    expect((await pruneHistory({ remote, retention: { keepRuns: 5 } })).commit).toBe(
      git(remote, 'rev-parse', 'gh-pages'),
    );
  });
});
