import { expectedDuets, searchRange } from '../../src/bisect/search.js';
import { plantedCommits, plantedDuet, type Planted } from './planted.js';

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
