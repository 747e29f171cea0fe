import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runBisect } from '../../src/pipeline/bisect-run.js';
import { renderBisect } from '../../src/bisect/render.js';
import { bisectScenario } from '../../src/bisect/workload.js';
import type { DuetOutcome, RunDuet } from '../../src/bisect/search.js';
import type { BisectMode } from '../../src/contracts/bisect.js';

/**
 * `--mode auto` through runBisect on a real repository of 8 commits after good, with a +20%
 * step at commit 5, each design's duets stood in by a port whose interval width and time are
 * set (nothing is measured here: the real duets are tests/cli/bisect.test.ts's).
 */
describe('runBisect --mode auto: both designs measure good against bad, the better one probes', () => {
  let dir: string;
  let commits: string[];
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'duetkit-bisect-mode-'));
    const git = (...args: string[]) =>
      execFileSync('git', args, { cwd: dir, stdio: 'pipe' }).toString().trim();
    git('init', '-q', '-b', 'main');
    git('config', 'user.email', 'test@example.com');
    git('config', 'user.name', 'test');
    for (let i = 0; i <= 8; i++) {
      await writeFile(path.join(dir, 'n.txt'), `${i}\n`);
      git('add', '.');
      git('commit', '-q', '-m', i === 0 ? 'good' : `change ${i}`);
    }
    commits = git('rev-list', '--reverse', 'HEAD').split('\n');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /**
   * A port: the true change (log 0.2 from commit 5 on) ± `half` (or ± `half(call)`, by the
   * call's number from 0), taking `seconds` a duet.
   */
  const port = (
    half: number | ((call: number) => number),
    seconds: number,
    broken: number | null = null,
  ) => {
    const calls: [string, string][] = [];
    const duet: RunDuet = (base, head) => {
      const h = typeof half === 'number' ? half : half(calls.length);
      calls.push([base, head]);
      const level = (id: string) => (commits.indexOf(id) >= 5 ? Math.log1p(0.2) : 0);
      if (broken !== null && [base, head].includes(commits[broken]!))
        return Promise.resolve<DuetOutcome>({
          kind: 'unbuildable',
          commit: commits[broken]!,
          reason: 'make: *** [all] Error 1',
        });
      const log = level(head) - level(base);
      return Promise.resolve<DuetOutcome>({
        kind: 'measured',
        result: {
          change: Math.expm1(log),
          lower: Math.expm1(log - h),
          upper: Math.expm1(log + h),
          level: 0.99,
          pairs: 30,
          seconds,
        },
      });
    };
    return { duet, calls };
  };

  const bisect = async (ports: Record<BisectMode, RunDuet>, chooseMode = true) =>
    runBisect({
      repo: dir,
      good: commits[0]!,
      bad: 'main',
      scenario: await bisectScenario({ cwd: dir, command: ['true'], source: 'test' }),
      benchmark: null,
      threshold: 0.01,
      budget: null,
      firstParent: true,
      env: process.env,
      signal: new AbortController().signal,
      chooseMode,
      duet: ports,
    });

  it('probes in RMIT when its interval per second is narrower, and counts the two duets that chose', async () => {
    const duet = port(0.08, 1);
    const rmit = port(0.01, 2);
    const report = await bisect({ duet: duet.duet, rmit: rmit.duet });
    expect(report.mode).toBe('rmit');
    expect(report.modeChoice!.chosen).toBe('rmit');
    expect(report.modeChoice!.trials.duet.seconds).toBe(1);
    expect(
      report.modeChoice!.trials.rmit.upper - report.modeChoice!.trials.rmit.lower,
    ).toBeLessThan(0.03);
    // the duet port measured good against bad once; everything else went to RMIT, whose
    // search began with good against bad again (the choice does not serve as the confirmation)
    expect(duet.calls).toEqual([[commits[0], commits[8]]]);
    expect(rmit.calls[0]).toEqual([commits[0], commits[8]]);
    expect(rmit.calls[1]).toEqual([commits[0], commits[8]]);
    expect(report.duets).toBe(duet.calls.length + rmit.calls.length);
    expect(report.steps.map((s) => [s.culprit.id, s.confirmed])).toEqual([[commits[5], true]]);
    // the default budget grows by the two choosing duets: three times (log2(8) + 2), + 2
    expect(report.budget).toBe(17);
    expect(report.measureSeconds).toBe(1 + 2 * rmit.calls.length);
  });

  it('keeps duets when they are the more precise per second', async () => {
    const duet = port(0.02, 1);
    const rmit = port(0.02, 2);
    const report = await bisect({ duet: duet.duet, rmit: rmit.duet });
    expect(report.mode).toBe('duet');
    expect(rmit.calls).toHaveLength(1);
    expect(report.steps.map((s) => s.culprit.id)).toEqual([commits[5]]);
  });

  it('when the chosen design cannot settle good against bad, the other one searches once', async () => {
    // the duet looked a little more precise once (RMIT's cost 1.9× its own: a close choice),
    // then never again: its search ends inconclusive
    const duet = port((call) => (call === 0 ? 0.015 : 0.5), 1);
    const rmit = port(0.02, 2);
    const report = await bisect({ duet: duet.duet, rmit: rmit.duet });
    expect(report.modeChoice).toMatchObject({ chosen: 'duet', switched: true });
    expect(report.mode).toBe('rmit');
    // the choice, then good against bad at 1×, 2× and 4× the pairs, all in duets; the note
    // gives the three pooled (this port says 30 pairs whatever the effort)
    expect(duet.calls).toHaveLength(4);
    expect(report.steps.map((s) => [s.culprit.id, s.confirmed])).toEqual([[commits[5], true]]);
    expect(report.duets).toBe(duet.calls.length + rmit.calls.length);
    expect(report.notes[0]).toMatch(
      /^the duets could not pin good against bad \(\+20\.00% \[-\d+\.\d\d%, \+\d+\.\d\d%\] at 90 pairs\); the other design searched$/,
    );
    expect(renderBisect(report)).toMatch(
      /\*\*Probes\*\*: RMIT rounds \(one commit at a time\): the duets chosen .* could not settle good against bad, so the other design searched\./,
    );
  });

  it('a good against bad too imprecise to place probes also hands over to the other design', async () => {
    // the duet: chosen, then +20% ± log 0.2 at every repeat; the three pooled, ± log 0.115, are
    // beyond the threshold but ±63% of the change: the search would place probes on it
    const duet = port((call) => (call === 0 ? 0.015 : 0.2), 1);
    const rmit = port(0.02, 2);
    const report = await bisect({ duet: duet.duet, rmit: rmit.duet });
    expect(report.modeChoice).toMatchObject({ chosen: 'duet', switched: true });
    expect(duet.calls).toHaveLength(4);
    expect(report.probes.every((p) => p.duets.length > 0)).toBe(true);
    expect(report.steps.map((s) => [s.culprit.id, s.confirmed])).toEqual([[commits[5], true]]);
  });

  it('after a clear choice, the chosen design keeps the search, settled or not', async () => {
    // RMIT measured 5.7× more precisely per second; its search then cannot settle: no switch
    // to a design that much worse, and the report says inconclusive
    const duet = port(0.08, 1);
    const rmit = port((call) => (call === 0 ? 0.01 : 0.5), 2);
    const report = await bisect({ duet: duet.duet, rmit: rmit.duet });
    expect(report.modeChoice).toMatchObject({ chosen: 'rmit', switched: false });
    expect(report.mode).toBe('rmit');
    expect(report.status).toBe('inconclusive');
    expect(duet.calls).toHaveLength(1);
    expect(report.steps).toEqual([]);
  });

  it('without the choice, probes in the scenario’s mode and records no choice', async () => {
    const duet = port(0.02, 1);
    const rmit = port(0.01, 1);
    const report = await bisect({ duet: duet.duet, rmit: rmit.duet }, false);
    expect(report.mode).toBe('duet');
    expect(report.modeChoice).toBeNull();
    expect(rmit.calls).toHaveLength(0);
    expect(report.budget).toBe(15);
  });

  it('a bad commit that does not build ends the choice; the search then says which commit', async () => {
    const duet = port(0.02, 1, 8);
    const rmit = port(0.01, 1, 8);
    await expect(bisect({ duet: duet.duet, rmit: rmit.duet })).rejects.toThrow(
      /the bad commit \w+ did not build: make/,
    );
    expect(rmit.calls).toHaveLength(0);
  });
});
