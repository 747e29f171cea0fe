import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { bareRemote, git, makeRunRepo, tempDir } from '../history/helpers.js';
import type { HistoryEntry } from '../../src/history/schema.js';

/**
 * `duetkit history ...` end to end: a real repository with two commits, a real `duetkit run`,
 * and a bare repository as the history's remote.
 */
describe('duetkit history (CLI)', () => {
  let t: ReturnType<typeof tempDir>;
  let repo: string;
  let remote: string;
  beforeAll(async () => {
    t = tempDir('duetkit-history-cli-');
    repo = await makeRunRepo(t.dir);
    remote = bareRemote(t.dir);
  });
  afterAll(() => t.cleanup());

  it('publish: an entry with the commit from git, the head value and its change; again: a no-op', async () => {
    const first = await runCli(
      ['history', 'publish', 'out', '--remote', '../remote.git', '--run-id', '42-1'],
      repo,
    );
    expect(first.err).toBe('');
    expect(first.out).toMatch(
      /^published duetkit\/entries\/micro-[0-9a-f]{8}\/\d{4}-\d\d\/\d{8}T\d{6}Z-42-1\.json to \.\.\/remote\.git \(branch gh-pages, commit [0-9a-f]{12}\)\n$/,
    );
    expect(first.code).toBe(0);
    const list = await runCli(['history', 'list', '--remote', remote, '--json'], repo);
    const { entries } = JSON.parse(list.out) as { entries: HistoryEntry[] };
    expect(entries).toHaveLength(1);
    const e = entries[0]!;
    const head = git(repo, 'rev-parse', 'HEAD');
    expect(e).toMatchObject({
      suite: 'micro',
      runId: '42-1',
      version: 'head',
      run: { event: 'cli', mode: 'duet', complete: true, level: 0.99, seed: 3 },
      commit: {
        id: head,
        message: 'Make parse slower',
        author: { name: 'Ada', email: 'ada@example.com' },
      },
      infrastructure: { isolation: { kind: 'none' } },
    });
    expect(e.run.scenarioHash).toMatch(/^[0-9a-f]{64}$/);
    expect(e.infrastructure.cpuModel).toBeTruthy();
    const b = e.benchmarks[0]!;
    expect(b).toMatchObject({ name: 'parse', unit: 'ms', statistic: 'median', n: 8, error: null });
    expect(b.value).toBeGreaterThan(111);
    expect(b.value).toBeLessThan(113);
    expect(b.ci!.lower).toBeLessThanOrEqual(b.value!);
    expect(b.ci!.upper).toBeGreaterThanOrEqual(b.value!);
    expect(b.comparison).toMatchObject({
      baseline: 'base',
      baseCommit: git(repo, 'rev-parse', 'HEAD~1'),
      verdict: 'regression',
    });
    expect(b.comparison!.change).toBeGreaterThan(0.1);

    const again = await runCli(
      ['history', 'publish', 'out', '--remote', remote, '--run-id', '42-1'],
      repo,
    );
    expect(again.out).toMatch(/^run 42-1 of micro is already in the history/);
    expect(again.code).toBe(0);
    // Without --run-id outside Actions: a hash of samples.json, so a retry is a no-op too.
    const generated = await runCli(
      ['history', 'publish', 'out', '--remote', remote, '--json'],
      repo,
    );
    const result = JSON.parse(generated.out);
    expect(result).toMatchObject({
      status: 'published',
      runId: expect.stringMatching(/^local-[0-9a-f]{16}$/),
    });
    const retry = await runCli(['history', 'publish', 'out', '--remote', remote, '--json'], repo);
    expect(JSON.parse(retry.out)).toMatchObject({ status: 'already', runId: result.runId });

    const table = await runCli(['history', 'list', '--remote', remote, '--suite', 'micro'], repo);
    expect(table.out.split('\n')[0]).toMatch(
      /^started\s+suite\s+run id\s+commit\s+benchmarks\s+comparisons\s+message$/,
    );
    expect(table.out).toMatch(/micro\s+42-1\s+[0-9a-f]{12}\s+1\s+1 regression\s+Make parse slower/);
  });

  it('errors say what is wrong and where the results are', async () => {
    const missing = await runCli(['history', 'publish', 'nowhere', '--remote', remote], repo);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(
      /^duetkit: error: cannot read .*nowhere\/samples\.json.*expected the directory `duetkit run --out DIR` or the action wrote/,
    );
    // A failed run leaves samples.json only: not history.
    const failed = path.join(repo, 'failed');
    mkdirSync(failed, { recursive: true });
    writeFileSync(
      path.join(failed, 'samples.json'),
      readFileSync(path.join(repo, 'out', 'samples.json')),
    );
    const noComparison = await runCli(['history', 'publish', 'failed', '--remote', remote], repo);
    expect(noComparison.err).toMatch(
      /comparison\.json.*a run that failed or was interrupted leaves none, and is not published/,
    );
    // A remote that refuses: the message names what was not published and where it is.
    const refusing = bareRemote(t.dir, 'refusing.git');
    writeFileSync(
      path.join(refusing, 'hooks', 'pre-receive'),
      '#!/bin/sh\necho "no pushes here" >&2\nexit 1\n',
      { mode: 0o755 },
    );
    const refused = await runCli(
      ['history', 'publish', 'out', '--remote', refusing, '--run-id', '9-1'],
      repo,
    );
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(
      /run 9-1 of suite "micro" was not published: .*refused the push: .*no pushes here.*Its results are still in .*\/out; publish them later with: duetkit history publish/s,
    );
    expect(git(refusing, 'for-each-ref')).toBe('');
    const prune = await runCli(['history', 'prune', '--remote', remote], repo);
    expect(prune.code).toBe(2);
    expect(prune.err).toContain('one of --keep-runs or --keep-days is required');
    const both = await runCli(
      ['history', 'prune', '--remote', remote, '--keep-runs', '1', '--keep-days', '3'],
      repo,
    );
    expect(both.code).toBe(2);
    const emptyList = await runCli(['history', 'list', '--remote', refusing], repo);
    expect(emptyList.out).toBe(`no history: ${refusing} has no branch gh-pages\n`);
  });

  it('import-gab and export-gab: a round trip of real data.js files, byte for byte', async () => {
    const fixtures = path.resolve(import.meta.dirname, '../fixtures/gab');
    const gabRemote = bareRemote(t.dir, 'gab.git');
    const all = path.join(fixtures, 'all-tools.data.js');
    const refused = await runCli(['history', 'import-gab', all, '--remote', gabRemote], repo);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(
      /has 12 benchmark sets \("cargo benchmarks", .*\): import each as a suite of its own with --suite-from-name, or all into one with --suite NAME/,
    );
    const imported = await runCli(
      ['history', 'import-gab', all, '--remote', gabRemote, '--suite-from-name'],
      repo,
    );
    expect(imported.err).toBe('');
    expect(imported.out).toMatch(
      /^imported 48 runs into "cargo benchmarks", "go benchmarks", .*"benchmarkdotnet benchmarks", commit [0-9a-f]{12}\n$/,
    );
    const again = await runCli(
      ['history', 'import-gab', all, '--remote', gabRemote, '--suite-from-name'],
      repo,
    );
    expect(again.out).toMatch(/^imported 0 runs into .* \(48 already there\)\n$/);
    const out = path.join(t.dir, 'exported.data.js');
    const exported = await runCli(
      ['history', 'export-gab', '--remote', gabRemote, '--out', out],
      repo,
    );
    expect(exported.out).toBe(`wrote 48 runs to ${out}\n`);
    // The suites come back in name order; github-action-benchmark's sets were in tool order.
    const parse = (file: string) =>
      JSON.parse(readFileSync(file, 'utf8').replace(/^window\.BENCHMARK_DATA = /, ''));
    const original = parse(all);
    const back = parse(out);
    expect(back.repoUrl).toBe(original.repoUrl);
    expect(back.lastUpdate).toBe(original.lastUpdate);
    expect(Object.keys(back.entries).sort()).toEqual(Object.keys(original.entries).sort());
    for (const name of Object.keys(original.entries))
      expect(back.entries[name]).toEqual(original.entries[name]);
    // What the importer made of each tool's direction.
    const list = JSON.parse(
      (await runCli(['history', 'list', '--remote', gabRemote, '--json'], repo)).out,
    ) as { entries: HistoryEntry[] };
    const bigger = new Set(
      list.entries.filter((e) => e.benchmarks[0]!.biggerIsBetter).map((e) => e.suite),
    );
    expect([...bigger].sort()).toEqual([
      'benchmarkjs benchmarks',
      'customBiggerIsBetter benchmarks',
      'pytest benchmarks',
    ]);

    // One set, truncated by max-items-in-chart: byte for byte.
    const goRemote = bareRemote(t.dir, 'go.git');
    const go = path.join(fixtures, 'go.data.js');
    expect((await runCli(['history', 'import-gab', go, '--remote', goRemote], repo)).out).toMatch(
      /^imported 5 runs into "go benchmarks"/,
    );
    const goOut = path.join(t.dir, 'go-exported.data.js');
    await runCli(['history', 'export-gab', '--remote', goRemote, '--out', goOut], repo);
    expect(readFileSync(goOut, 'utf8')).toBe(readFileSync(go, 'utf8'));
  });

  it('import-gab names the file and field of a broken data.js', async () => {
    const broken = path.join(t.dir, 'broken.data.js');
    writeFileSync(
      broken,
      'window.BENCHMARK_DATA = {"entries": {"x": [{"commit": {"id": "a"}, "date": 1, "tool": "rust", "benches": []}]}}',
    );
    const result = await runCli(['history', 'import-gab', broken, '--remote', remote], repo);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/broken\.data\.js: entries\.x\.0\.tool: one of cargo, go, /);
    rmSync(broken);
    expect(existsSync(broken)).toBe(false);
  });

  it('prune --keep-runs keeps the newest', async () => {
    const result = await runCli(['history', 'prune', '--remote', remote, '--keep-runs', '1'], repo);
    expect(result.out).toMatch(
      /^removed 1 entry \(commit [0-9a-f]{12}\):\n {2}duetkit\/entries\/micro-/,
    );
    const list = JSON.parse(
      (await runCli(['history', 'list', '--remote', remote, '--json'], repo)).out,
    );
    expect(list.entries).toHaveLength(1);
  });
});
