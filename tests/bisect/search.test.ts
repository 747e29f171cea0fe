import {
  expectedDuets,
  pooledDuets,
  rest,
  searchRange,
  type RunDuet,
} from '../../src/bisect/search.js';
import type { DuetRecord } from '../../src/contracts/bisect.js';
import { MISREAD_TWO_STEPS, plantedCommits, plantedDuet, type Planted } from './planted.js';

const T = { threshold: 0.05, budget: 20 };

async function bisectPlanted(p: Planted, settings = T) {
  const { duet, calls } = plantedDuet(p);
  const result = await searchRange(plantedCommits(p.commits), duet, settings);
  return { result, calls, commits: plantedCommits(p.commits) };
}

describe('searchRange on planted histories', () => {
  it('finds a +30% step among 16 commits in about log2(N) + 2 duets, and confirms it', async () => {
    for (const at of [1, 5, 8, 9, 16]) {
      const { result, commits } = await bisectPlanted({ commits: 16, steps: [{ at, size: 0.3 }] });
      expect(result.status).toBe('found');
      expect(result.steps).toHaveLength(1);
      const step = result.steps[0]!;
      expect(step.culprit.id).toBe(commits[at]!.id);
      expect(step.before).toBe(commits[at - 1]!.id);
      expect(step.alsoPossible).toEqual([]);
      expect(step.confirmed).toBe(true);
      expect(step.confirmation!.change).toBeGreaterThan(0.25);
      expect(step.share).toBeCloseTo(1, 0);
      expect(result.duets).toBeLessThanOrEqual(expectedDuets(16));
      expect(result.remainder).toBeNull();
      expect(result.probes.every((p) => p.class === 'like-good' || p.class === 'like-bad')).toBe(
        true,
      );
    }
  });

  it('finds a 6% step (just beyond the 5% threshold) among 64 commits', async () => {
    const { result, commits } = await bisectPlanted({
      commits: 64,
      steps: [{ at: 37, size: 0.06 }],
      halfWidth: 0.005,
    });
    expect(result.status).toBe('found');
    expect(result.steps.map((s) => s.culprit.id)).toEqual([commits[37]!.id]);
    expect(result.duets).toBe(expectedDuets(64));
  });

  it('finds a +20% step with a 1% threshold when every duet is off by +0.8% (two checkouts of the same code)', async () => {
    // good's zone is ±1% of the change's 20%: no probe's estimate lands in it, yet each rules
    // the far end out, which is enough (every probe stayed unclear before)
    for (const at of [3, 22, 40]) {
      const { result, commits } = await bisectPlanted(
        { commits: 64, steps: [{ at, size: 0.2 }], offset: 0.008, halfWidth: 0.03, seed: at },
        { threshold: 0.01, budget: 16 },
      );
      expect(result.probes.map((p) => p.class)).not.toContain('unclear');
      expect(result.status).toBe('found');
      expect(result.steps.map((s) => s.culprit.id)).toEqual([commits[at]!.id]);
      expect(result.duets).toBe(expectedDuets(64));
    }
  });

  it('an A/A range: good and bad do not differ, nothing is bisected and no culprit named', async () => {
    const { result, calls } = await bisectPlanted({ commits: 32, steps: [] });
    expect(result.status).toBe('no-change');
    expect(result.steps).toEqual([]);
    expect(result.probes).toEqual([]);
    expect(calls).toHaveLength(1);
    expect(result.notes[0]).toMatch(/do not differ beyond ±5%: nothing to bisect/);
  });

  it('a change smaller than the threshold is not bisected either', async () => {
    const { result } = await bisectPlanted({
      commits: 32,
      steps: [{ at: 10, size: 0.02 }],
      halfWidth: 0.01,
    });
    expect(result.status).toBe('no-change');
    expect(result.steps).toEqual([]);
  });

  it('two steps in one range: both located, each with its size, probes in between', async () => {
    const { result, commits } = await bisectPlanted({
      commits: 32,
      steps: [
        { at: 7, size: 0.15 },
        { at: 21, size: 0.15 },
      ],
      halfWidth: 0.01,
    });
    expect(result.status).toBe('found');
    expect(result.steps.map((s) => s.culprit.id)).toEqual([commits[7]!.id, commits[21]!.id]);
    for (const s of result.steps) {
      expect(s.confirmation!.change).toBeGreaterThan(0.12);
      expect(s.confirmation!.change).toBeLessThan(0.18);
      expect(s.share).toBeGreaterThan(0.35);
      expect(s.share).toBeLessThan(0.65);
    }
    expect(result.probes.some((p) => p.class === 'in-between')).toBe(true);
    expect(result.notes).toContain(
      'the change is spread over 2 steps: each is listed with its size',
    );
  });

  it('a misread probe that hid the second of two steps: the change left unexplained is searched for again', async () => {
    // the probe at 32 reads 92% of the change where the truth is 50% (a real range did so):
    // 32..64 looks like bad throughout, and only the step at 19 is located at first
    const { result, commits } = await bisectPlanted(MISREAD_TWO_STEPS, {
      threshold: 0.01,
      budget: 30,
    });
    expect(result.status).toBe('found');
    expect(result.steps.map((s) => s.culprit.id)).toEqual([commits[19]!.id, commits[60]!.id]);
    expect(result.steps.every((s) => s.confirmed)).toBe(true);
    for (const s of result.steps) {
      expect(s.share).toBeGreaterThan(0.35);
      expect(s.share).toBeLessThan(0.65);
    }
    const probe32 = result.probes.find((p) => p.index === 32)!;
    expect(probe32.class).toBe('like-bad');
    // its neighbours read in between, so a step was placed at 32 first: its confirmation shows
    // none, and the two confirmed steps account for the change
    expect(result.notes).toContainEqual(
      expect.stringMatching(/^c032000000 looked like a step .* shows none, .*: not a step$/),
    );
    const remainder = result.remainder!;
    expect(remainder.change.lower).toBeGreaterThan(0.05);
    expect(remainder.segments.map((s) => [s.from, s.to, s.status])).toEqual([
      [commits[32]!.id, commits[64]!.id, 'found'],
    ]);
    const again = result.probes.filter((p) => p.segment !== undefined);
    expect(again.length).toBeGreaterThan(2);
    expect(again.every((p) => p.index > 32 && p.index < 64)).toBe(true);
    expect(result.notes).toContainEqual(
      expect.stringMatching(/the rest, \+\d+\.\d+% \[.*\], was searched for again$/),
    );
    // about log2(N) + 2 for each step located, the one the misread placed included
    expect(result.duets).toBeLessThanOrEqual(3 * expectedDuets(64));
  });

  it('an in-between probe at a level its in-between neighbour does not share gets more pairs before a step is placed', async () => {
    // 16 reads half the change; 8's first duet reads 0.64 of it (a misread), its second 0.5
    const { result, commits } = await bisectPlanted(
      {
        commits: 32,
        steps: [
          { at: 7, size: 0.15 },
          { at: 21, size: 0.15 },
        ],
        halfWidth: 0.01,
        misread: { commit: 8, log: 0.04 },
      },
      { threshold: 0.05, budget: 30 },
    );
    const probe8 = result.probes.find((p) => p.index === 8)!;
    expect(probe8.class).toBe('in-between');
    expect(probe8.duets.map((d) => d.effort)).toEqual([1, 2]);
    expect(result.status).toBe('found');
    expect(result.steps.map((s) => s.culprit.id)).toEqual([commits[7]!.id, commits[21]!.id]);
    // no probe between 8 and 16: the two were taken for one level
    expect(result.probes.filter((p) => p.index > 8 && p.index < 16)).toEqual([]);
  });

  it('with the budget spent before the rest is found, the result says a step may be missing', async () => {
    const { result, commits } = await bisectPlanted(MISREAD_TWO_STEPS, {
      threshold: 0.01,
      budget: 13,
    });
    expect(result.status).toBe('narrowed');
    expect(result.steps[0]!.culprit.id).toBe(commits[19]!.id);
    // a step the misread probe placed, kept unconfirmed while the change is unexplained
    for (const s of result.steps.slice(1)) expect(s.confirmed).toBe(false);
    expect(result.notes.at(-1)).toMatch(
      /still leave \+\d+\.\d+% .* unexplained: a step may be missing/,
    );
    expect(result.duets).toBeLessThanOrEqual(13);
  });

  it('rest: what the steps leave of the whole change, the half-widths in quadrature', () => {
    const d = (change: number, h: number) => ({
      change,
      lower: Math.expm1(Math.log1p(change) - h),
      upper: Math.expm1(Math.log1p(change) + h),
      level: 0.99,
    });
    const step = (change: number, h: number) =>
      ({
        confirmation: { ...d(change, h), base: 'a', head: 'b', pairs: 30, effort: 1, seconds: 1 },
      }) as never;
    const both = rest(d(0.21, 0.01), [step(0.1, 0.01), step(0.1, 0.01)])!;
    expect(both.change).toBeCloseTo(0, 10);
    expect(Math.log1p(both.upper)).toBeCloseTo(0.01 * Math.sqrt(3), 10);
    const one = rest(d(0.21, 0.03), [step(0.1, 0.04)])!;
    expect(one.change).toBeCloseTo(0.1, 10);
    expect(Math.log1p(one.upper) - Math.log1p(one.change)).toBeCloseTo(0.05, 10);
    expect(rest(d(0.21, 0.01), [{ confirmation: null } as never])).toBeNull();
  });

  it('commits that do not build are skipped; the culprit is still exact', async () => {
    const { result, commits } = await bisectPlanted({
      commits: 16,
      steps: [{ at: 11, size: 0.3 }],
      broken: [8, 12],
    });
    expect(result.status).toBe('found');
    expect(result.steps[0]!.culprit.id).toBe(commits[11]!.id);
    const skipped = result.probes.filter((p) => p.class === 'skipped');
    expect(skipped.map((p) => p.index)).toEqual([8]);
    expect(skipped[0]!.reason).toBe('make: *** [all] Error 1');
  });

  it('when the commit before the step does not build, the step is a range like git bisect skip', async () => {
    const { result, commits } = await bisectPlanted({
      commits: 16,
      steps: [{ at: 9, size: 0.3 }],
      broken: [8],
    });
    expect(result.status).toBe('narrowed');
    const step = result.steps[0]!;
    expect(step.culprit.id).toBe(commits[9]!.id);
    expect(step.alsoPossible).toEqual([commits[8]!.id]);
    expect(step.before).toBe(commits[7]!.id);
    expect(step.unresolved).toMatch(/c008\S* did not build/);
    expect(step.confirmed).toBe(true);
  });

  it('an unclear probe gets more pairs, and is decided when they settle it', async () => {
    const { result, calls, commits } = await bisectPlanted({
      commits: 16,
      steps: [{ at: 6, size: 0.3 }],
      wide: { commits: [8], below: 4 },
    });
    expect(result.status).toBe('found');
    expect(result.steps[0]!.culprit.id).toBe(commits[6]!.id);
    const probe = result.probes.find((p) => p.index === 8)!;
    expect(probe.duets.map((d) => d.effort)).toEqual([1, 2, 4]);
    expect(probe.class).toBe('like-bad');
    expect(calls.filter(([, head]) => head === commits[8]!.id)).toHaveLength(3);
  });

  it("a probe's duets decide together: each too wide alone, pooled they place it", async () => {
    // commit 8 (past the +30% step at 6) reads its true level at ±log 0.22 whatever the pairs:
    // alone, each duet's interval reaches into good's zone (unclear); the first two pooled,
    // ±log 0.156, rule it out
    const { duet: planted } = plantedDuet({ commits: 16, steps: [{ at: 6, size: 0.3 }] });
    const commits = plantedCommits(16);
    const duet: RunDuet = async (base, head, effort) => {
      const out = await planted(base, head, effort);
      if (head !== commits[8]!.id || out.kind !== 'measured') return out;
      const log = base === commits[0]!.id ? Math.log1p(0.3) : 0;
      const r = { ...out.result, change: Math.expm1(log) };
      return {
        kind: 'measured',
        result: { ...r, lower: Math.expm1(log - 0.22), upper: Math.expm1(log + 0.22) },
      };
    };
    const result = await searchRange(commits, duet, T);
    const probe = result.probes.find((p) => p.index === 8)!;
    expect(probe.duets.map((d) => d.effort)).toEqual([1, 2]);
    expect(probe.class).toBe('like-bad');
    expect(result.steps[0]!.culprit.id).toBe(commits[6]!.id);
    expect(result.status).toBe('found');
  });

  it('pooledDuets: a ladder of duets as one record, by inverse variance in log space', () => {
    const d = (change: number, half: number, effort: number): DuetRecord => ({
      base: 'a',
      head: 'b',
      change: Math.expm1(change),
      lower: Math.expm1(change - half),
      upper: Math.expm1(change + half),
      level: 0.99,
      pairs: 30 * effort,
      effort,
      seconds: effort,
    });
    const one = d(0.1, 0.05, 1);
    expect(pooledDuets([one])).toBe(one);
    const two = pooledDuets([d(0.1, 0.05, 1), d(0.1, 0.05, 2)]);
    expect(Math.log1p(two.change)).toBeCloseTo(0.1, 12);
    expect(Math.log1p(two.upper) - Math.log1p(two.change)).toBeCloseTo(0.05 / Math.SQRT2, 12);
    expect(two).toMatchObject({ pairs: 90, effort: 3, seconds: 3, level: 0.99 });
    // the narrower duet weighs 4× (half the width): (0 + 4 × 0.1) / 5
    const mixed = pooledDuets([d(0, 0.1, 1), d(0.1, 0.05, 4)]);
    expect(Math.log1p(mixed.change)).toBeCloseTo(0.08, 12);
    // a zero-width duet gives no variance to weigh: the last decides
    const flat = d(0.2, 0, 2);
    expect(pooledDuets([d(0.1, 0.05, 1), flat])).toBe(flat);
  });

  it('a probe that stays unclear is reported so, and the search goes around it', async () => {
    const { result, commits } = await bisectPlanted({
      commits: 16,
      steps: [{ at: 6, size: 0.3 }],
      wide: { commits: [8], below: 100 },
    });
    const probe = result.probes.find((p) => p.index === 8)!;
    expect(probe.class).toBe('unclear');
    expect(result.steps[0]!.culprit.id).toBe(commits[6]!.id);
    expect(result.status).toBe('found');
  });

  it('a budget too small leaves the step as a range, never a named guess', async () => {
    const { result, commits } = await bisectPlanted(
      { commits: 64, steps: [{ at: 40, size: 0.3 }] },
      { threshold: 0.05, budget: 4 },
    );
    expect(result.status).toBe('narrowed');
    expect(result.duets).toBeLessThanOrEqual(4);
    const step = result.steps[0]!;
    expect(step.unresolved).toMatch(/budget/);
    expect([step.culprit.id, ...step.alsoPossible]).toContain(commits[40]!.id);
    expect(step.alsoPossible.length).toBeGreaterThan(0);
  });

  it('an improvement is bisected as well as a regression', async () => {
    const { result, commits } = await bisectPlanted({
      commits: 16,
      steps: [{ at: 3, size: -0.25 }],
    });
    expect(result.status).toBe('found');
    expect(result.steps[0]!.culprit.id).toBe(commits[3]!.id);
    expect(result.steps[0]!.confirmation!.change).toBeLessThan(-0.2);
  });

  it('a good or bad commit that does not build is an error naming it', async () => {
    const { duet } = plantedDuet({ commits: 8, steps: [{ at: 3, size: 0.3 }], broken: [0] });
    await expect(searchRange(plantedCommits(8), duet, T)).rejects.toThrow(
      /the good commit c000\w+ did not build: make/,
    );
  });
});
