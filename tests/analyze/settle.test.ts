import { settleAdvice } from '../../src/analyze/settle.js';
import { compare } from '../../src/stats/compare.js';
import { createRng } from '../../src/stats/rng.js';

const noisy = (n: number, sd: number) => {
  const rng = createRng(3);
  const base = Array.from({ length: n }, () => 10 * Math.exp(sd * rng.nextNormal()));
  const head = Array.from({ length: n }, () => 10.3 * Math.exp(sd * rng.nextNormal()));
  return compare(base, head, { paired: true, threshold: 0.02, seed: 1 });
};

describe('what would settle an inconclusive comparison', () => {
  it('says how much more machine time at this pace', () => {
    // 400 more pairs at 20 pairs/s
    const c = { ...noisy(30, 0.03), verdict: 'inconclusive' as const, moreSamplesNeeded: 400 };
    const s = settleAdvice(c, 20, { isolation: 'cgroup-v1', medianIterationMs: 50 });
    expect(s.seconds).toBe(20);
    expect(s.advice).toMatch(
      /^about \d+ more pairs would settle it: .* more at this run's 20 pairs\/s$/,
    );
  });

  it('says when the benchmark is too noisy here, and what would help', () => {
    const c = { ...noisy(30, 0.4), verdict: 'inconclusive' as const, moreSamplesNeeded: 100_000 };
    const s = settleAdvice(c, 0.5, { isolation: 'none', medianIterationMs: 3 });
    expect(s.advice).toMatch(
      /^too noisy at this size on this machine: settling it would take about/,
    );
    expect(s.advice).toContain('CPU isolation (cpuset cgroups');
    expect(s.advice).toContain('each iteration measures only 3.0 ms');
    expect(s.advice).toMatch(/a threshold above ±\d/);
  });
});

it('an estimate on the threshold: no number of pairs settles it', () => {
  const c = { ...noisy(30, 0.03), verdict: 'inconclusive' as const, moreSamplesNeeded: null };
  expect(settleAdvice(c, 20, { isolation: 'cgroup-v1', medianIterationMs: 50 }).advice).toMatch(
    /^the estimate sits on the threshold/,
  );
});
