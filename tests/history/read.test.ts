import { entryPath } from '../../src/history/layout.js';
import { readHistory } from '../../src/history/read.js';
import { HistoryFormatError, parseEntry } from '../../src/history/schema.js';
import { bareRemote, makeEntry, pushFiles, tempDir } from './helpers.js';

describe('parseEntry', () => {
  it('accepts a valid entry and unknown fields (a newer writer may add some)', () => {
    const entry = { ...makeEntry(), futureField: 1, aa: { anything: [1, 2] } };
    expect(parseEntry(JSON.stringify(entry), 'x.json').suite).toBe('micro');
  });

  it('names the file, the field and the value', () => {
    const entry = makeEntry();
    (entry.benchmarks[1] as { value: unknown }).value = 'fast';
    expect(() => parseEntry(JSON.stringify(entry), 'entries/a.json')).toThrow(
      /^entries\/a\.json: benchmarks\.1\.value: .*got "fast"/,
    );
    expect(() => parseEntry('{not json', 'b.json')).toThrow(HistoryFormatError);
    expect(() => parseEntry('{not json', 'b.json')).toThrow(/^b\.json: not JSON/);
    const missing = { ...makeEntry(), run: undefined };
    expect(() => parseEntry(JSON.stringify(missing), 'c.json')).toThrow(/^c\.json: run: .*missing/);
    expect(() =>
      parseEntry(JSON.stringify({ ...makeEntry(), schemaVersion: 9 }), 'd.json'),
    ).toThrow(/d\.json: schemaVersion: 9 was written by a newer duetkit/);
  });
});

describe('readHistory on a real bare repository', () => {
  let t: ReturnType<typeof tempDir>;
  beforeEach(() => (t = tempDir()));
  afterEach(() => t.cleanup());

  it('a missing branch is an empty history', async () => {
    const remote = bareRemote(t.dir);
    const read = await readHistory({ remote });
    expect(read).toEqual({ entries: [], stored: [], warnings: [], tip: null });
  });

  it.each([
    ['serves partial clones', true],
    ['sends every file with the tip', false],
  ])(
    'reads entries oldest first, one suite or all, and skips a corrupt file with a warning (a remote that %s)',
    async (_, partial) => {
      const remote = bareRemote(t.dir, 'remote.git', partial);
      const a = makeEntry({ runId: 'b-second', startedAt: '2026-03-02T00:00:00Z' });
      const b = makeEntry({ runId: 'a-first', startedAt: '2026-03-01T00:00:00Z' });
      const c = makeEntry({
        suite: 'other suite/x',
        runId: 'c',
        startedAt: '2026-02-01T00:00:00Z',
      });
      const at = (e: typeof a) => `duetkit/${entryPath(e.suite, e.runId, e.run.startedAt)}`;
      const corrupt = `duetkit/${entryPath('micro', 'broken', '2026-03-03T00:00:00Z')}`;
      pushFiles(remote, 'gh-pages', {
        [at(a)]: JSON.stringify(a),
        [at(b)]: JSON.stringify(b),
        [at(c)]: JSON.stringify(c),
        [corrupt]: '{"schemaVersion": 1, "suite": "micro"',
        'duetkit/README.md': 'not an entry',
      });
      const all = await readHistory({ remote });
      expect(all.entries.map((e) => e.runId)).toEqual(['c', 'a-first', 'b-second']);
      expect(all.warnings).toEqual([
        expect.stringMatching(/^skipped duetkit\/entries\/micro-.*broken\.json: not JSON/),
      ]);
      const micro = await readHistory({ remote, suite: 'micro' });
      expect(micro.entries.map((e) => e.runId)).toEqual(['a-first', 'b-second']);
      expect(micro.stored[0]!.path).toBe(entryPath('micro', 'a-first', b.run.startedAt));
      const other = await readHistory({ remote, suite: 'other suite/x' });
      expect(other.entries.map((e) => e.suite)).toEqual(['other suite/x']);
      expect(await readHistory({ remote, path: 'elsewhere' })).toMatchObject({ entries: [] });
    },
  );

  it('an entry in the wrong folder is skipped, naming the field', async () => {
    const remote = bareRemote(t.dir);
    const e = makeEntry({ runId: 'r1' });
    pushFiles(remote, 'gh-pages', {
      [`duetkit/${entryPath('another', 'r1', e.run.startedAt)}`]: JSON.stringify(e),
    });
    const read = await readHistory({ remote });
    expect(read.entries).toEqual([]);
    expect(read.warnings[0]).toMatch(/: suite: "micro" belongs in micro-[0-9a-f]{8}\//);
  });

  it('an unreachable remote is an error naming it', async () => {
    await expect(readHistory({ remote: `${t.dir}/nothing-here.git` })).rejects.toThrow(
      /cannot read the remote .*nothing-here\.git/,
    );
  });
});
