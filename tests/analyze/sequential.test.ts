import { asSequential, assessLook } from '../../src/analyze/sequential.js';
import { settleAdvice } from '../../src/analyze/settle.js';
import { compare } from '../../src/stats/compare.js';
import { adjustFamily } from '../../src/stats/family.js';
import { MIN_PAIRS_TO_CALL } from '../../src/stats/sequential.js';
import { createRng } from '../../src/stats/rng.js';

/** `n` pairs whose head is `factor` times the base, with a little scatter of no pattern. */
function pairs(n: number, factor: number): { base: number[]; head: number[] } {
  const rng = createRng(5);
  const base = Array.from({ length: n }, () => 2830 * (1 + 0.004 * (rng.nextFloat() - 0.5)));
  return { base, head: base.map((b) => b * factor * (1 + 0.004 * (rng.nextFloat() - 0.5))) };
}

const schedule = { pairs: [5, 15], weights: [0.8, 0.2] };
const look = (n: number) => ({
  look: n >= 15 ? 1 : 0,
  looks: 2,
  pairs: n,
  lookLevel: 0.992,
  callFloor: MIN_PAIRS_TO_CALL,
});

describe('a suite calls a change on at least MIN_PAIRS_TO_CALL pairs', () => {
  it('leaves a clear change at a 5-pair look inconclusive, with the pairs it still needs', () => {
    const { base, head } = pairs(5, 1.32);
    const c = asSequential(
      compare(base, head, { paired: true, seed: 1, test: 'trimmed-t' }),
      look(5),
      0.99,
      schedule,
    );
    expect(c.ci.lower).toBeGreaterThan(0.05);
    expect(c.ci.sequential?.callFloor).toBe(8);
    expect(c.verdict).toBe('inconclusive');
    expect(c.moreSamplesNeeded).toBe(3);
    // the family's adjustment decides the verdict again, and keeps the floor
    expect(adjustFamily([c])[0]!.verdict).toBe('inconclusive');
    expect(settleAdvice(c, 2, { isolation: 'cgroup-v1', medianIterationMs: 20 }).advice).toBe(
      "the interval clears the threshold, but a suite calls a change on at least 8 pairs (at fewer, a few processes in a slower mode together can look like one; docs/suites.md) and this look had 5: 3 more pairs would settle it, 1.5 s more at this run's pace",
    );
  });

  it('calls it from 8 pairs on, and says unchanged at any size', () => {
    const changed = pairs(15, 1.32);
    const c = asSequential(
      compare(changed.base, changed.head, { paired: true, seed: 1, test: 'trimmed-t' }),
      look(15),
      0.99,
      schedule,
    );
    expect(c.verdict).toBe('regression');
    const same = pairs(5, 1.0);
    expect(
      asSequential(
        compare(same.base, same.head, { paired: true, seed: 1, test: 'trimmed-t' }),
        look(5),
        0.99,
        schedule,
      ).verdict,
    ).toBe('unchanged');
  });

  it('keeps a unit open for the focus while its call rests on fewer pairs', () => {
    const { base, head } = pairs(5, 1.32);
    const raw = compare(base, head, { paired: true, seed: 1, level: 0.992, test: 'trimmed-t' });
    expect(raw.verdict).toBe('regression');
    const family = { size: 1, weight: 0.8, alpha: 0.01 };
    expect(assessLook([{ comparison: raw, error: null }], family, 8)).toEqual({
      decision: 'open',
      pairsToSettle: 3,
      change: raw.change,
      clear: true,
      evidence: raw.change / ((raw.ci.upper - raw.ci.lower) / 2),
    });
    expect(assessLook([{ comparison: raw, error: null }], family, 0)?.decision).toBe('settled');
  });

  it('says whether the largest change looks real: its interval clear of zero, not only its estimate far', () => {
    // the estimate beyond ±5% in both, the scatter wide in one: noisy pairs around +8%
    const rng = createRng(11);
    const base = Array.from({ length: 9 }, () => 1000);
    const noisy = base.map((b, i) => b * (1.08 + (i % 2 === 0 ? 0.35 : -0.35) * rng.nextFloat()));
    const steady = base.map((b) => b * (1.08 + 0.004 * (rng.nextFloat() - 0.5)));
    const family = { size: 100, weight: 0.8, alpha: 0.01 };
    const of = (head: number[]) =>
      compare(base, head, { paired: true, seed: 1, level: 0.992, test: 'trimmed-t' });
    const wide = assessLook([{ comparison: of(noisy), error: null }], family, 8)!;
    expect(of(noisy).ci.lower).toBeLessThan(0);
    expect(wide.change).toBeGreaterThan(0.05);
    expect(wide.clear).toBe(false);
    // the estimate over the interval's half-width: below 1 when the interval crosses zero
    const w = of(noisy);
    expect(wide.evidence).toBeCloseTo(w.change / ((w.ci.upper - w.ci.lower) / 2), 12);
    expect(wide.evidence!).toBeLessThan(1);
    const sure = assessLook([{ comparison: of(steady), error: null }], family, 8)!;
    expect(sure.change).toBeGreaterThan(0.05);
    expect(sure.clear).toBe(true);
    expect(sure.evidence!).toBeGreaterThan(1);
  });
});
