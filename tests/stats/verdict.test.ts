import { decideVerdict, type VerdictInput } from '../../src/stats/verdict.js';

const base: VerdictInput = {
  change: 0,
  lower: -0.01,
  upper: 0.01,
  threshold: 0.05,
  pValueAdjusted: 0.5,
  alpha: 0.01,
  biggerIsBetter: false,
  n: 30,
};
const v = (over: Partial<VerdictInput>) => decideVerdict({ ...base, ...over });

describe('verdict against a practical threshold', () => {
  it('unchanged when the CI lies inside ±threshold', () => {
    expect(v({}).verdict).toBe('unchanged');
    expect(v({ change: 0.04, lower: 0.03, upper: 0.049, pValueAdjusted: 1e-6 }).verdict).toBe(
      'unchanged',
    );
  });

  it('regression / improvement when the CI clears the threshold and the test rejects', () => {
    expect(v({ change: 0.08, lower: 0.06, upper: 0.1, pValueAdjusted: 0.001 }).verdict).toBe(
      'regression',
    );
    expect(v({ change: -0.08, lower: -0.1, upper: -0.06, pValueAdjusted: 0.001 }).verdict).toBe(
      'improvement',
    );
  });

  it('calls no change below minPairsToCall: inconclusive, with the pairs still missing', () => {
    const clear = { change: 0.32, lower: 0.31, upper: 0.33, pValueAdjusted: 1e-9 };
    expect(v({ ...clear, n: 5, minPairsToCall: 8 })).toEqual({
      verdict: 'inconclusive',
      moreSamplesNeeded: 3,
    });
    expect(
      v({ ...clear, change: -0.3, lower: -0.31, upper: -0.29, n: 5, minPairsToCall: 8 }),
    ).toEqual({ verdict: 'inconclusive', moreSamplesNeeded: 3 });
    expect(v({ ...clear, n: 8, minPairsToCall: 8 }).verdict).toBe('regression');
    // unchanged needs no floor: an interval inside ±threshold says so at any size
    expect(v({ n: 5, minPairsToCall: 8 }).verdict).toBe('unchanged');
    // a straddling interval still says what would settle it
    expect(
      v({ change: 0.04, lower: 0.01, upper: 0.09, n: 5, minPairsToCall: 8 }).moreSamplesNeeded,
    ).toBeGreaterThan(0);
  });

  it('bigger-is-better flips the meaning', () => {
    expect(
      v({ change: 0.08, lower: 0.06, upper: 0.1, pValueAdjusted: 0.001, biggerIsBetter: true })
        .verdict,
    ).toBe('improvement');
    expect(
      v({ change: -0.08, lower: -0.1, upper: -0.06, pValueAdjusted: 0.001, biggerIsBetter: true })
        .verdict,
    ).toBe('regression');
  });

  it('inconclusive when the CI crosses the threshold, with samples to settle it', () => {
    // estimate 0.07, lower half-width 0.04, distance to threshold 0.02: n' = 30·(0.04/0.02)² = 120
    const r = v({ change: 0.07, lower: 0.03, upper: 0.11, pValueAdjusted: 0.001 });
    expect(r).toEqual({ verdict: 'inconclusive', moreSamplesNeeded: 90 });
    // estimate inside: the wider side decides: max((0.06-0.02)/(0.05-0.02), (0.02+0.01)/(0.02+0.05))
    const inside = v({ change: 0.02, lower: -0.01, upper: 0.06 });
    expect(inside.verdict).toBe('inconclusive');
    expect(inside.moreSamplesNeeded).toBe(Math.ceil(30 * (0.04 / 0.03) ** 2 - 30));
    expect(v({ change: 0.05, lower: 0.01, upper: 0.09 }).moreSamplesNeeded).toBeNull();
  });

  it('inconclusive when the CI clears the threshold but the adjusted test does not reject', () => {
    expect(v({ change: 0.08, lower: 0.06, upper: 0.1, pValueAdjusted: 0.02 })).toEqual({
      verdict: 'inconclusive',
      moreSamplesNeeded: null,
    });
  });

  it('with threshold 0, any CI excluding zero with a rejecting test is a change', () => {
    expect(
      v({ threshold: 0, change: 0.01, lower: 0.002, upper: 0.018, pValueAdjusted: 0.001 }).verdict,
    ).toBe('regression');
    expect(v({ threshold: 0 }).verdict).toBe('inconclusive');
  });
});
