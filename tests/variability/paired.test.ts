import { commitOf, plantedHistory } from '../../benchmarks/variability/history.js';
import type { HistoryEntry } from '../../src/history/schema.js';
import { planAlert } from '../../src/variability/alert.js';
import { analyzeVariability } from '../../src/variability/analyze.js';
import { pairedStepOf } from '../../src/variability/paired.js';
import { renderVariability } from '../../src/variability/render.js';

const NOW = new Date('2026-12-01T00:00:00Z');

/** Nightly duets against the previous night's commit: ±0.4% around the truth, 1% wide. */
const paired = {
  threshold: 0.01,
  outcome: (truth: number, rng: { nextNormal(): number }) => {
    const change = truth + 0.001 * rng.nextNormal();
    return { change, lower: change - 0.005, upper: change + 0.005 };
  },
};

function nights(runs: number, stepAt = 12): HistoryEntry[] {
  return plantedHistory({ runs, seed: 3, step: { at: stepAt, size: 0.03 }, paired });
}

describe('paired steps: each run judged against its base commit', () => {
  it('lists the night a step landed, with its commits, and only that night', () => {
    const report = analyzeVariability(nights(20), { now: NOW });
    const suite = report.suites[0]!;
    const b = suite.benchmarks[0]!;
    expect(b.paired.comparisons).toBe(19);
    expect(b.paired.medianCiWidth).toBeCloseTo(0.01, 10);
    expect(b.paired.called).toHaveLength(1);
    expect(b.paired.called[0]).toMatchObject({
      runId: 'run-0012',
      verdict: 'regression',
      baseCommit: commitOf(11),
      headCommit: commitOf(12),
    });
    expect(b.paired.called[0]!.change).toBeCloseTo(0.03, 2);
    expect(suite.paired).toMatchObject({ runs: 19, comparisons: 19, called: 1 });
    expect(suite.paired!.latest).toMatchObject({ runId: 'run-0019', called: [] });
    const md = renderVariability(report);
    expect(md).toContain('### Steps judged within one run');
    expect(md).toContain('19 paired comparisons in 19 runs; 1 called changed.');
    expect(md).toContain(
      'Median interval width per benchmark: 1.00% to 1.00%: a step beyond ±1.50% to ±1.50% (the threshold and half the width) is called the night it lands.',
    );
    const line = md.match(
      /- \*\*bench\*\* 🔴 regression \+(\d\.\d\d)% \[\+(\d\.\d\d)%, \+(\d\.\d\d)%\] \(99% CI, threshold ±1\.0%\) in run run-0012 \(2026-01-17\), commits `000000000b`\.\.`000000000c`/,
    );
    expect(line).not.toBeNull();
    // the planted +3% step: the estimate near it, the interval around it
    const [estimate, lower, upper] = line!.slice(1).map(Number);
    expect(Math.abs(estimate! - 3)).toBeLessThan(0.5);
    expect(lower!).toBeLessThan(3);
    expect(upper!).toBeGreaterThan(3);
  });

  it('an A/A comparison, a base without a commit or no comparison is not a step', () => {
    const [, e] = nights(2);
    const b = e!.benchmarks[0]!;
    expect(pairedStepOf(e!, b)).not.toBeNull();
    expect(pairedStepOf(e!, { ...b, comparison: null })).toBeNull();
    expect(
      pairedStepOf(e!, { ...b, comparison: { ...b.comparison!, baseCommit: null } }),
    ).toBeNull();
    expect(
      pairedStepOf(e!, { ...b, comparison: { ...b.comparison!, baseCommit: e!.commit!.id } }),
    ).toBeNull();
    // without paired comparisons the report has no such section
    const plain = analyzeVariability(plantedHistory({ runs: 8, seed: 1 }), { now: NOW });
    expect(plain.suites[0]!.paired).toBeNull();
    expect(renderVariability(plain)).not.toContain('Steps judged within one run');
  });

  it('the alert announces the step the night it lands, once', () => {
    const landing = analyzeVariability(nights(13), { now: NOW }).suites[0]!;
    expect(landing.benchmarks[0]!.changePoints).toEqual([]);
    const first = planAlert(landing, null, NOW);
    expect(first.action).toBe('alert');
    expect(first.comment).toMatch(/🔴 regression \+[23]\.\d\d% .* in run run-0012/);
    expect(first.state.known).toContainEqual({ benchmark: 'bench', runId: 'paired:run-0012' });
    expect(first.body).toContain('Steps judged within one run');
    // the report read again before the next night: nothing new, the condition no longer holds
    const again = planAlert(landing, first.state, NOW);
    expect(again.action).toBe('clear');
    expect(again.comment).toMatch(/no new change point or step/);
    // the next night compares two commits with the step on both sides: nothing called
    const next = analyzeVariability(nights(14), { now: NOW }).suites[0]!;
    expect(next.paired!.latest!.called).toEqual([]);
    expect(planAlert(next, again.state, NOW).action).toBe('none');
  });
});
