import { constantValue, exactComparison } from '../../src/stats/exact.js';
import { NotComparableError } from '../../src/stats/ratio.js';
import { createRng } from '../../src/stats/rng.js';

describe('constantValue', () => {
  it('is the one value of a constant side, else null', () => {
    expect(constantValue([12])).toBe(12);
    expect(constantValue([3, 3, 3])).toBe(3);
    expect(constantValue([3, 3, 4])).toBeNull();
    expect(constantValue([])).toBeNull();
    expect(constantValue([NaN, NaN])).toBeNull();
  });
});

describe('exactComparison', () => {
  it('equal sides: unchanged, change 0, p 1, a zero-width interval, no resampling', () => {
    const c = exactComparison([12, 12, 12], [12, 12, 12], { paired: true, level: 0.99, seed: 5 });
    expect(c).toMatchObject({
      change: 0,
      verdict: 'unchanged',
      ci: { level: 0.99, lower: 0, upper: 0, resamples: 0, bootstrap: 'paired', seed: 5 },
      test: { name: 'exact', method: 'exact', pValue: 1, pValueAdjusted: 1, adjustment: 'none' },
      ks: { statistic: 0, pValue: 1 },
      n: { base: 3, head: 3 },
      cv: { base: 0, head: 0 },
      base: { n: 3, median: 12, mean: 12, min: 12, max: 12, sd: 0 },
      mde: 0,
      moreSamplesNeeded: null,
      paired: true,
    });
    expect(c.notes).toEqual([
      'every base value is 12 and every head value is 12: compared exactly, without an interval or a test',
    ]);
  });

  it('12 → 13 is +8.33% exactly: a regression beyond 5%, p 0, one value per side is enough', () => {
    const c = exactComparison([12], [13], { threshold: 0.05 });
    expect(c.change).toBeCloseTo(1 / 12, 15);
    expect(c.ci.lower).toBe(c.change);
    expect(c.ci.upper).toBe(c.change);
    expect(c.test.pValue).toBe(0);
    expect(c.test.statistic).toBe(1);
    expect(c.verdict).toBe('regression');
    expect(c.n).toEqual({ base: 1, head: 1 });
    expect(c.paired).toBe(false);
  });

  it('decides by the threshold alone, with the sign flipped for bigger-is-better metrics', () => {
    expect(exactComparison([13], [12]).verdict).toBe('improvement');
    expect(exactComparison([100], [104]).verdict).toBe('unchanged'); // +4% inside ±5%
    expect(exactComparison([100], [104], { threshold: 0.03 }).verdict).toBe('regression');
    expect(exactComparison([12], [13], { biggerIsBetter: true }).verdict).toBe('improvement');
    expect(exactComparison([13], [12], { biggerIsBetter: true }).verdict).toBe('regression');
    expect(exactComparison([2], [3]).change).toBe(0.5);
  });

  it('agrees with the rule on random constants (property)', () => {
    const rng = createRng(21);
    for (let i = 0; i < 500; i++) {
      const base = 1 + Math.floor(rng.nextFloat() * 50);
      const head = rng.nextFloat() < 0.2 ? base : Math.floor(rng.nextFloat() * 60);
      const biggerIsBetter = rng.nextFloat() < 0.5;
      const threshold = [0, 0.01, 0.05, 0.2][i % 4]!;
      const c = exactComparison([base, base], [head, head], { biggerIsBetter, threshold });
      const worse = (biggerIsBetter ? -1 : 1) * (head / base - 1);
      const expected =
        base === head
          ? 'unchanged'
          : worse > threshold
            ? 'regression'
            : worse < -threshold
              ? 'improvement'
              : 'unchanged';
      expect([base, head, biggerIsBetter, threshold, c.verdict]).toEqual([
        base,
        head,
        biggerIsBetter,
        threshold,
        expected,
      ]);
      expect(c.test.pValue).toBe(base === head ? 1 : 0);
      expect(c.change).toBe(base === head ? 0 : head / base - 1);
    }
  });

  it('0 on both sides is a change of 0; a base of 0 against more, or a negative, forms no ratio', () => {
    expect(exactComparison([0, 0], [0, 0])).toMatchObject({ change: 0, verdict: 'unchanged' });
    expect(exactComparison([5], [0])).toMatchObject({ change: -1, verdict: 'improvement' });
    let thrown: unknown;
    try {
      exactComparison([0], [3]);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(NotComparableError);
    expect((thrown as NotComparableError).notComparable).toMatchObject({
      reason: 'base values are all 0: a relative change (head/base − 1) is undefined',
      base: { n: 1, median: 0 },
      head: { n: 1, median: 3 },
    });
    expect(() => exactComparison([-1], [3])).toThrow(NotComparableError);
  });

  it('refuses sides that are not one constant, empty sides and unequal pairs', () => {
    expect(() => exactComparison([1, 2], [2, 2])).toThrow(
      'base: an exact comparison needs one finite value repeated, got 1, 2',
    );
    expect(() => exactComparison([1], [])).toThrow('head: needs at least 1 value, got 0');
    expect(() => exactComparison([1, 1], [1], { paired: true })).toThrow(
      /paired comparison needs as many head values as base values; base has 2, head has 1/,
    );
    expect(() => exactComparison([1], [1], { level: 2 })).toThrow(/level must be between 0 and 1/);
  });
});
