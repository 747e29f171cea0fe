import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BisectReport } from '../../src/contracts/bisect.js';
import { main } from '../../src/cli/main.js';
import { fakeContext } from '../helpers/cli.js';

/**
 * A real repository of 16 commits after `good`: a program that sleeps for the time its build
 * wrote (out.txt, from delay.txt), 20 ms until `slowAt`, 26 ms (+30%) from it on; the build
 * fails at `brokenAt`, and logs every build to $BUILD_LOG. Subjects end with "(#1xx)".
 */
async function plantedRepo(options: { slowAt: number | null; brokenAt: number | null }) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'duetkit-bisect-'));
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: dir, stdio: 'pipe' }).toString().trim();
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'test@example.com');
  git('config', 'user.name', 'test');
  const build = (broken: boolean) =>
    broken
      ? 'echo "build.sh: syntax error near line 3" >&2\nexit 1\n'
      : 'echo "$(git rev-parse HEAD)" >> "$BUILD_LOG"\ncp delay.txt out.txt\n';
  await writeFile(path.join(dir, 'bench.sh'), 'sleep "$(cat out.txt)"\n');
  for (let i = 0; i <= 16; i++) {
    const slow = options.slowAt !== null && i >= options.slowAt;
    await writeFile(path.join(dir, 'delay.txt'), slow ? '0.026\n' : '0.020\n');
    await writeFile(path.join(dir, 'build.sh'), build(i === options.brokenAt));
    await writeFile(path.join(dir, 'notes.txt'), `commit ${i}\n`);
    git('add', '.');
    git('commit', '-q', '-m', i === 0 ? 'good' : `change ${i} (#${100 + i})`);
    if (i === 0) git('tag', 'good');
  }
  const commits = git('rev-list', '--reverse', 'HEAD').split('\n');
  return { dir, commits };
}

async function bisect(dir: string, extra: string[] = []) {
  const log = path.join(dir, '..', `${path.basename(dir)}-builds.log`);
  await writeFile(log, '');
  const ctx = fakeContext(dir, { ...process.env, BUILD_LOG: log });
  const out = path.join(dir, '..', `${path.basename(dir)}-bisect.json`);
  const code = await main(
    [
      'bisect',
      '--good',
      'good',
      '--bad',
      'main',
      ...(extra.includes('--no-setup') ? [] : ['--setup', 'sh build.sh']),
      '--iterations',
      '15',
      '--seed',
      '7',
      '--out',
      out,
      ...extra.filter((x) => x !== '--no-setup'),
      '--',
      'sh',
      'bench.sh',
    ],
    ctx,
  );
  const report = JSON.parse(await readFile(out, 'utf8')) as BisectReport;
  const builds = (await readFile(log, 'utf8')).split('\n').filter((l) => l.length > 0);
  await rm(log, { force: true });
  await rm(out, { force: true });
  return { code, ctx, report, builds };
}

describe('duetkit bisect on a real repository', () => {
  const made: string[] = [];
  afterAll(() => Promise.all(made.map((d) => rm(d, { recursive: true, force: true }))));

  it('names the planted +30% commit, skips a commit that does not build, builds each once', async () => {
    const { dir, commits } = await plantedRepo({ slowAt: 11, brokenAt: 8 });
    made.push(dir);
    const { code, ctx, report, builds } = await bisect(dir);
    expect(code).toBe(0);
    expect(report.status).toBe('found');
    expect(report.confirmation.lower).toBeGreaterThan(0.05);
    expect(report.steps).toHaveLength(1);
    const step = report.steps[0]!;
    expect(step.culprit).toEqual({
      id: commits[11],
      subject: 'change 11 (#111)',
      pullRequest: 111,
      merge: false,
    });
    expect(step.before).toBe(commits[10]);
    expect(step.confirmed).toBe(true);
    expect(step.confirmation!.change).toBeGreaterThan(0.15);
    // commit 8 is the first midpoint: skipped, with its build's error
    const skipped = report.probes.find((p) => p.commit === commits[8])!;
    expect(skipped.class).toBe('skipped');
    expect(skipped.reason).toMatch(/setup.*failed.*syntax error near line 3/s);
    // every commit built at most once (the broken one never logs), only those probed
    expect(new Set(builds).size).toBe(builds.length);
    expect(builds.length).toBeLessThanOrEqual(report.duets + 1);
    expect(report.duets).toBeLessThanOrEqual(report.budget);
    expect(report.commits).toHaveLength(16);
    expect(ctx.out).toMatch(/\*\*Culprit\*\*: `\w{10}` change 11 \(#111\)/);
    expect(ctx.out).toMatch(/\| `\w{10}` \| change 8 \(#108\) \| good \| – \|.*\| skipped/);
    expect(ctx.out).toMatch(/Duets: \d+ of a budget of \d+ \(log2\(N\) \+ 2 = 6\)/);
    // with a command, the design was chosen by measuring good against bad both ways
    expect(report.modeChoice).not.toBeNull();
    expect(report.modeChoice!.trials.duet.pairs).toBeGreaterThan(0);
    expect(report.modeChoice!.trials.rmit.pairs).toBeGreaterThan(0);
    expect(['duet', 'rmit']).toContain(report.mode);
    expect(ctx.out).toMatch(/\*\*Probes\*\*: (duets|RMIT rounds) .*`--mode auto`/);
    // the worktrees are gone
    expect(
      execFileSync('git', ['worktree', 'list'], { cwd: dir }).toString().trim().split('\n'),
    ).toHaveLength(1);
  }, 90_000);

  it('an A/A range: says good and bad do not differ, bisects nothing, names no culprit', async () => {
    const { dir } = await plantedRepo({ slowAt: null, brokenAt: null });
    made.push(dir);
    const { code, ctx, report, builds } = await bisect(dir);
    expect(code).toBe(0);
    expect(report.status).toBe('no-change');
    expect(report.steps).toEqual([]);
    expect(report.probes).toEqual([]);
    expect(builds).toHaveLength(2);
    expect(ctx.out).toMatch(/no change beyond the threshold — nothing to bisect/);
    expect(ctx.out).not.toMatch(/Culprit/);
  }, 60_000);

  it('names the merge of the pull request, and with --no-first-parent the commit inside it', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'duetkit-bisect-merge-'));
    made.push(dir);
    const git = (...args: string[]) =>
      execFileSync('git', args, { cwd: dir, stdio: 'pipe' }).toString().trim();
    const commit = async (message: string, delay: string) => {
      await writeFile(path.join(dir, 'delay.txt'), `${delay}\n`);
      await writeFile(path.join(dir, `${message.replace(/\W+/g, '-')}.txt`), `${message}\n`);
      git('add', '.');
      git('commit', '-q', '-m', message);
    };
    git('init', '-q', '-b', 'main');
    git('config', 'user.email', 'test@example.com');
    git('config', 'user.name', 'test');
    await writeFile(path.join(dir, 'bench.sh'), 'sleep "$(cat delay.txt)"\n');
    await commit('good', '0.020');
    git('tag', 'good');
    for (const i of [1, 2, 3]) await commit(`main ${i}`, '0.020');
    git('checkout', '-q', '-b', 'feature');
    await commit('feature: parse tokens', '0.020');
    await commit('feature: cache the parser', '0.026');
    await commit('feature: docs', '0.026');
    git('checkout', '-q', 'main');
    await commit('main 4', '0.020');
    git('merge', '-q', '--no-ff', '-m', 'Merge pull request #42 from acme/feature', 'feature');
    await commit('main 5', '0.026');
    const slow = git('rev-parse', 'feature~1');
    const merge = git('rev-parse', 'main~1');
    const firstParent = await bisect(dir, ['--no-setup']);
    expect(firstParent.report.status).toBe('found');
    expect(firstParent.report.steps.map((s) => s.culprit)).toEqual([
      {
        id: merge,
        subject: 'Merge pull request #42 from acme/feature',
        pullRequest: 42,
        merge: true,
      },
    ]);
    expect(firstParent.ctx.out).toMatch(
      /\*\*Culprit\*\*: `\w{10}` Merge pull request #42 from acme\/feature\n/,
    );
    const inside = await bisect(dir, ['--no-setup', '--no-first-parent']);
    const step = inside.report.steps[0]!;
    expect(step.culprit.id).toBe(merge);
    expect(step.insideMerge!.status).toBe('found');
    expect(step.insideMerge!.steps.map((s) => [s.culprit.id, s.culprit.subject])).toEqual([
      [slow, 'feature: cache the parser'],
    ]);
    expect(inside.ctx.out).toMatch(
      /- inside the merge .*: 1 step\(s\)\n {2}- `\w{10}` feature: cache the parser: \+/,
    );
  }, 90_000);

  it('--mode rmit: probes run the two commits one at a time, and name the same commit', async () => {
    const { dir, commits } = await plantedRepo({ slowAt: 5, brokenAt: null });
    made.push(dir);
    const { code, report } = await bisect(dir, ['--mode', 'rmit']);
    expect(code).toBe(0);
    expect(report.status).toBe('found');
    expect(report.steps.map((s) => [s.culprit.id, s.confirmed])).toEqual([[commits[5], true]]);
    expect(report.mode).toBe('rmit');
    expect(report.modeChoice).toBeNull();
  }, 120_000);

  it('refuses --mode with a scenario file (the file names its mode) and an unknown mode', async () => {
    const { dir } = await plantedRepo({ slowAt: null, brokenAt: null });
    made.push(dir);
    await writeFile(
      path.join(dir, 'bench.yml'),
      'name: s\nversions: [{name: a, path: .}, {name: b, path: .}]\nworkload: {command: sh bench.sh}\n',
    );
    const both = fakeContext(dir);
    expect(
      await main(
        ['bisect', '--good', 'good', '--bad', 'main', '--scenario', 'bench.yml', '--mode', 'rmit'],
        both,
      ),
    ).toBe(2);
    expect(both.err).toMatch(/the mode \(rmit\) comes from the scenario file's "mode"/);
    const unknown = fakeContext(dir);
    expect(
      await main(
        ['bisect', '--good', 'good', '--bad', 'main', '--mode', 'mct', '--', 'true'],
        unknown,
      ),
    ).not.toBe(0);
    expect(unknown.err).toMatch(/--mode.*mct.*duet.*rmit/s);
  });

  it('refuses a range whose good is not an ancestor of bad, naming both', async () => {
    const { dir } = await plantedRepo({ slowAt: null, brokenAt: null });
    made.push(dir);
    const ctx = fakeContext(dir);
    const code = await main(['bisect', '--good', 'main', '--bad', 'good', '--', 'true'], ctx);
    expect(code).toBe(2);
    expect(ctx.err).toMatch(/--good main \(\w{10}\) is not an ancestor of --bad good/);
  });
});
