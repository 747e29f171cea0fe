import { compare } from '../../src/stats/compare.js';
import { quantileSorted } from '../../src/stats/descriptive.js';
import { NotComparableError } from '../../src/stats/ratio.js';
import { createRng } from '../../src/stats/rng.js';
import type { Comparison, CompareOptions, NotComparable } from '../../src/stats/types.js';

const fast = { resamples: 1000, seed: 3, level: 0.95 };

function positive(n: number, seed: number, median = 1e-4): number[] {
  const rng = createRng(seed);
  return Array.from({ length: n }, () => median * Math.exp(0.1 * rng.nextNormal()));
}

/** The NotComparable that compare throws, or a failure naming what it returned instead. */
function notComparable(base: number[], head: number[], options: CompareOptions = {}) {
  try {
    const c = compare(base, head, { ...fast, ...options });
    throw new Error(`expected no ratio, got a change of ${c.change}`);
  } catch (error) {
    if (!(error instanceof NotComparableError)) throw error;
    expect(error).toBeInstanceOf(RangeError);
    expect(error.message).toBe(`not comparable: ${error.notComparable.reason}`);
    return error.notComparable as NotComparable;
  }
}

/** Every number a Comparison holds survives JSON (no NaN or ∞ turned into null). */
function expectJsonSafe(c: Comparison): void {
  expect(JSON.parse(JSON.stringify(c))).toEqual(c);
}

describe('compare: values that form no ratio', () => {
  it('a base of 0 everywhere is not comparable, with what each side measured', () => {
    const head = [0, 0, 1e-3, 0, 0, 2e-3];
    const n = notComparable([0, 0, 0, 0, 0, 0], head, { statistic: 'mean' });
    expect(n.reason).toBe('base values are all 0: a relative change (head/base − 1) is undefined');
    expect(n.statistic).toBe('mean');
    expect(n.base).toMatchObject({ n: 6, median: 0, mean: 0, gmean: null, cv: 0, max: 0 });
    expect(n.head).toMatchObject({ n: 6, median: 0, max: 2e-3 });
    expect(n.head.mean).toBeCloseTo(5e-4, 15);
    expect(JSON.parse(JSON.stringify(n))).toEqual(n);
  });

  it('some zeros in the base are not comparable either, paired or not', () => {
    const base = [1e-4, 0, 2e-4, 0, 1e-4];
    const head = [1e-4, 1e-4, 0, 2e-4, 1e-4];
    for (const paired of [false, true]) {
      expect(notComparable(base, head, { paired }).reason).toBe(
        '2 of 5 base values are 0: a relative change (head/base − 1) needs every base value above 0',
      );
    }
  });

  it('negative values are not comparable, on either side', () => {
    expect(notComparable([1, 2, 3], [1, -2, 3]).reason).toBe(
      'head value #2 is -2: a relative change (head/base − 1) needs values that are not negative',
    );
    expect(notComparable([-1, 2, 3], [1, 2, 3]).reason).toMatch(/^base value #1 is -1/);
  });

  it('0 on both sides everywhere is still exactly unchanged: head reproduced base', () => {
    for (const paired of [false, true]) {
      const c = compare([0, 0, 0, 0], [0, 0, 0, 0], { ...fast, paired });
      expect(c).toMatchObject({ change: 0, verdict: 'unchanged', ci: { lower: 0, upper: 0 } });
    }
  });

  it('bad data stays an error, not "not comparable"', () => {
    for (const [base, head] of [
      [[0], [1, 2]],
      [
        [0, 0],
        [1, Number.NaN],
      ],
      [
        [0, 0],
        [1, Number.POSITIVE_INFINITY],
      ],
    ]) {
      let thrown: unknown;
      try {
        compare(base!, head!, fast);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(RangeError);
      expect(thrown).not.toBeInstanceOf(NotComparableError);
    }
  });
});

describe('compare: a head of 0 is a ratio of 0 (−100%)', () => {
  const base = positive(20, 1);
  const zero = Array<number>(20).fill(0);

  it.each([
    ['unpaired', false, 'median'],
    ['unpaired', false, 'mean'],
    ['unpaired', false, 'gmean'],
    ['paired', true, 'median'],
    ['paired', true, 'mean'],
    ['paired', true, 'gmean'],
  ] as const)('%s %s: −100%%, a finite interval, a verdict', (_, paired, statistic) => {
    const c = compare(base, zero, { ...fast, paired, statistic });
    expect(c.change).toBe(-1);
    expect(c.ci.lower).toBe(-1);
    expect(c.ci.upper).toBe(-1);
    expect(c.verdict).toBe('improvement');
    expect(c.notes).toContain(
      '20 of 20 head values are 0: a ratio of 0 to the base, a change of −100%',
    );
    expect(c.head.gmean).toBeNull();
    expectJsonSafe(c);
    const bigger = compare(base, zero, { ...fast, paired, statistic, biggerIsBetter: true });
    expect(bigger.verdict).toBe('regression'); // a throughput that fell to 0
  });

  it.each([
    ['unpaired', false],
    ['paired', true],
  ] as const)('%s, some heads 0: every number finite, the zeros noted', (_, paired) => {
    const head = positive(20, 2).map((v, i) => (i % 4 === 0 ? 0 : v));
    for (const statistic of ['median', 'mean', 'gmean'] as const) {
      const c = compare(base, head, { ...fast, paired, statistic, blockLength: 'auto' });
      expectJsonSafe(c);
      expect(c.ci.lower).toBeLessThanOrEqual(c.change);
      expect(c.ci.upper).toBeGreaterThanOrEqual(c.change);
      expect(c.notes).toContain(
        '5 of 20 head values are 0: a ratio of 0 to the base, a change of −100%',
      );
    }
    // the median pair ratio ignores a quarter of zeros: about no change
    const median = compare(base, head, { ...fast, paired, statistic: 'median' });
    expect(Math.abs(median.change)).toBeLessThan(0.15);
  });

  it('the Wilcoxon test ranks a head of 0 as the largest decrease', () => {
    const head = base.map((v, i) => (i < 3 ? 0 : v * 1.01));
    const c = compare(base, head, { ...fast, paired: true, blockLength: 1 });
    // 17 pairs up by 1%, 3 down to 0 with the largest |log ratio|: R⁻ = 18 + 19 + 20
    expect(c.test.statistic).toBe(57);
    expectJsonSafe(c);
  });
});

describe('quantileSorted with −∞ (the log ratio of a head of 0)', () => {
  it('keeps −∞ where it is an end, instead of NaN', () => {
    const xs = Float64Array.from([-Infinity, -Infinity, 0.5, 1]);
    expect(quantileSorted(xs, 0)).toBe(-Infinity);
    expect(quantileSorted(xs, 0.2)).toBe(-Infinity);
    expect(quantileSorted(xs, 0.5)).toBe(-Infinity); // between −∞ and 0.5
    expect(quantileSorted(xs, 0.75)).toBeCloseTo(0.625, 12);
  });
});
