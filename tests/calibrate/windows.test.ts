import { getMethod } from '../../src/calibrate/methods.js';
import { recommend, summarizeCell } from '../../src/calibrate/summary.js';
import { cutWindows, type Trace } from '../../src/calibrate/trace.js';
import { wilsonInterval } from '../../src/stats/proportion.js';
import { createRng } from '../../src/stats/rng.js';

/** A synthetic sequential trace: base, aa (identical) and head (+10%), 10 ms per trial. */
function trace(rounds: number, seed = 1): Trace {
  const rng = createRng(seed);
  return {
    mode: 'rmit',
    versions: ['base', 'aa', 'head'],
    benchmark: 'kernel',
    rounds: Array.from({ length: rounds }, (_, round) => {
      const drift = 1 + 0.02 * Math.sin(round / 7);
      const noise = () => Math.exp(0.01 * rng.nextNormal());
      return {
        round,
        startMs: round * 30,
        values: [10 * drift * noise(), 10 * drift * noise(), 11 * drift * noise()],
        costMs: [10, 10, 10],
      };
    }),
  };
}

const settings = { budgetMs: 400, level: 0.99, resamples: 500, seed: 3 };

describe('trace-driven windows', () => {
  it('cuts non-overlapping windows of at least the budget and drops the partial last one', () => {
    expect(cutWindows([3, 3, 3, 3, 3, 3, 3], 6)).toEqual([
      [0, 2],
      [2, 4],
      [4, 6],
    ]);
    expect(() => cutWindows([1], 0)).toThrow(/budget must be positive/);
  });

  it('charges a sequential comparison both versions of a round, so a window has budget/20 ms rounds', () => {
    const outcomes = getMethod('rmit').evaluate(trace(200), 0, 2, settings);
    expect(outcomes).toHaveLength(10);
    for (const o of outcomes) {
      expect(o.n).toBe(20);
      expect(o.seconds).toBeCloseTo(0.4);
      expect(o.called).toBe('slower');
      expect(o.estimate).toBeGreaterThan(0.08);
    }
  });

  it('gives every method an outcome per window; the fixed threshold has no interval', () => {
    const t = trace(200);
    expect(getMethod('mct').evaluate(t, 0, 1, settings)).toHaveLength(10);
    const gab = getMethod('gab-5').evaluate(t, 0, 2, settings);
    expect(gab).toHaveLength(9); // the first window has no stored baseline before it
    expect(gab.every((o) => o.lower === null && o.called === 'slower')).toBe(true);
    expect(
      getMethod('gab-200')
        .evaluate(t, 0, 2, settings)
        .every((o) => o.called === 'none'),
    ).toBe(true);
  });

  it('summarises a cell with a Wilson interval and recommends a budget from the MDE', () => {
    const outcomes = getMethod('rmit').evaluate(trace(200), 0, 1, settings);
    const cell = summarizeCell(
      { method: 'rmit', label: 'rmit', condition: 'quiet', change: 0, trueChange: 0 },
      outcomes,
    );
    expect(cell.comparisons).toBe(10);
    expect(cell.rate.upper).toBeGreaterThan(cell.rate.estimate);
    expect(cell.medianCiWidth).toBeGreaterThan(0);
    // α = 1: never excluded for its false-positive rate; all-false-positive cells always are.
    const r = recommend([cell], cell.medianMde! / 2, 1)!;
    expect(r.method).toBe('rmit');
    expect(r.budgetSeconds).toBeCloseTo(cell.secondsPerComparison! * 4);
    expect(r.iterations).toBe(Math.ceil(cell.medianN! * 4));
    // never below 30 iterations, however small the MDE already is
    const floor = recommend([cell], cell.medianMde! * 10, 1)!;
    expect(floor.iterations).toBe(30);
    expect(floor.budgetSeconds).toBeCloseTo((cell.secondsPerComparison! * 30) / cell.medianN!);
    const noisy = { ...cell, hits: 10, rate: wilsonInterval(10, 10) };
    expect(recommend([noisy], 0.01, 0.01)).toBeNull();
  });
});
