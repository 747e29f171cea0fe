import { plantedHistory } from '../../benchmarks/variability/history.js';
import { analyzeVariability } from '../../src/variability/analyze.js';
import { isoWeek } from '../../src/variability/patterns.js';
import { renderVariability } from '../../src/variability/render.js';

const NOW = new Date('2026-12-01T00:00:00Z');

describe('analyzeVariability on planted histories', () => {
  it('finds a 5% step at its commit, with a CI around the planted size', () => {
    const entries = plantedHistory({ runs: 80, seed: 11, step: { at: 50, size: 0.05 } });
    const b = analyzeVariability(entries, { now: NOW }).suites[0]!.benchmarks[0]!;
    expect(b.changePoints).toHaveLength(1);
    const c = b.changePoints[0]!;
    expect(Math.abs(c.index - 50)).toBeLessThanOrEqual(1);
    expect(c.direction).toBe('regression');
    expect(c.step.lower!).toBeLessThan(0.05);
    expect(c.step.upper!).toBeGreaterThan(0.05);
    expect(c.range.compareUrl).toBe(
      `https://github.com/acme/app/compare/${c.before.commit}...${c.after.commit}`,
    );
    // the step is divided out: between-run CV near the planted 2%, not inflated by the 5%
    expect(b.noise.betweenRunCv!.lower).toBeLessThan(0.02);
    expect(b.noise.betweenRunCv!.upper).toBeGreaterThan(0.02);
  });

  it('finds an hour-of-day effect and reports no weekday pattern in its absence', () => {
    const entries = plantedHistory({ runs: 168, seed: 5, everyHours: 6, hourEffect: { 14: 0.04 } });
    const b = analyzeVariability(entries, { now: NOW }).suites[0]!.benchmarks[0]!;
    const [hour, weekday] = b.patterns;
    expect(hour!.found).toBe(true);
    expect(hour!.spread!.high).toBe('14');
    expect(hour!.groups.map((g) => g.label)).toEqual(['02', '08', '14', '20']);
    expect(weekday!.found).toBe(false);
    expect(weekday!.summary).toMatch(
      /^no pattern by weekday found .* would need about \d+ runs per group$/,
    );
  });

  it('says there is no hour analysis when every run starts at the same hour', () => {
    const entries = plantedHistory({ runs: 30, seed: 2 });
    const hour = analyzeVariability(entries, { now: NOW }).suites[0]!.benchmarks[0]!.patterns[0]!;
    expect(hour.kruskal).toBeNull();
    expect(hour.summary).toMatch(/one hour of day \(UTC\) only \(02\)/);
  });

  it('counts A/A false positives against the nominal rate, and names tonight’s', () => {
    const entries = plantedHistory({ runs: 60, seed: 8, aa: { mde: 0.012, falsePositive: 0.1 } });
    const suite = analyzeVariability(entries, { now: NOW }).suites[0]!;
    const b = suite.benchmarks[0]!;
    expect(suite.aa!.comparisons).toBe(60);
    expect(suite.aa!.calledChanged).toBe(b.noise.aaCalledChanged.length);
    expect(suite.aa!.nominal).toBeCloseTo(0.01, 12);
    expect(b.noise.mdeRecent).toBeCloseTo(0.012, 12);
    expect(b.noise.mde.every((m) => m.source === 'aa')).toBe(true);
  });

  it('repetitions: the error range shrinks with more runs and is near ±1.96·CV for one run', () => {
    const entries = plantedHistory({ runs: 200, seed: 9 });
    const reps = analyzeVariability(entries, { now: NOW }).suites[0]!.benchmarks[0]!.repetitions;
    expect(reps.map((r) => r.repetitions)).toEqual([1, 2, 3, 5, 9, 15]);
    expect(reps[0]!.upper).toBeGreaterThan(0.03);
    expect(reps[0]!.upper).toBeLessThan(0.05);
    for (let i = 1; i < reps.length; i++)
      expect(reps[i]!.upper - reps[i]!.lower).toBeLessThan(reps[i - 1]!.upper - reps[i - 1]!.lower);
  });

  it('reuse vs re-provision: sets of runs on one machine against sets across machines', () => {
    const entries = plantedHistory({ runs: 60, seed: 3, hosts: ['h1', 'h2', 'h3', 'h4'] });
    const infra = analyzeVariability(entries, { now: NOW }).suites[0]!.benchmarks[0]!
      .infrastructure;
    expect(infra.reuse!.reusedSets).toBe(20);
    expect(infra.reuse!.summary).toMatch(/3 runs on one machine span/);
    const single = analyzeVariability(plantedHistory({ runs: 20, seed: 3 }), { now: NOW });
    expect(single.suites[0]!.benchmarks[0]!.infrastructure.notes[0]).toMatch(
      /no machine identity recorded/,
    );
  });

  it('renders one Markdown report that states how every number was obtained', () => {
    const entries = plantedHistory({
      runs: 60,
      seed: 12,
      step: { at: 40, size: -0.08 },
      aa: { mde: 0.01, falsePositive: 0 },
    });
    const md = renderVariability(
      analyzeVariability(entries, { now: NOW, settings: { since: '2026-01-06T00:00:00Z' } }),
    );
    expect(md).toMatch(
      /^## duetkit variability: nightly\n\n59 runs from 2026-01-06 to 2026-03-05\./,
    );
    expect(md).toMatch(/A\/A duet of the latest run \(2026-03-05\): nothing called changed\./);
    expect(md).toMatch(
      /A\/A false positives: 0 of 59 comparisons in 59 runs \(0\.00%, 95% Wilson \[0\.00%, 6\.11%\]; nominal 1\.0%\): consistent with the nominal rate\./,
    );
    expect(md).toMatch(
      /\*\*bench\*\* 🟢 improvement -[\d.]+% \[-[\d.]+%, -[\d.]+%\] between runs run-0039/,
    );
    expect(md).toMatch(
      /E-Divisive \(Matteson & James 2014; .*signal-processing-algorithms computes it\), permutation test at α = 0\.01 with 499 permutations/,
    );
  });

  it('ISO weeks: year boundaries follow ISO 8601', () => {
    expect(isoWeek(new Date('2026-01-01T00:00:00Z'))).toBe('2026-W01');
    expect(isoWeek(new Date('2027-01-01T00:00:00Z'))).toBe('2026-W53');
    expect(isoWeek(new Date('2024-12-30T00:00:00Z'))).toBe('2025-W01');
    expect(isoWeek(new Date('2026-03-15T23:59:59Z'))).toBe('2026-W11');
  });
});
