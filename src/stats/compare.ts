import { autoBlockLength } from './block-length.js';
import { bootstrap, type BootstrapPlan, type BootstrapResult } from './bootstrap.js';
import { medianAbsoluteDeviation, sorted, standardDeviation } from './descriptive.js';
import { bootstrapInterval } from './interval.js';
import { ksTwoSample } from './ks.js';
import { medianInterval } from './median-interval.js';
import { mannWhitneyU } from './mann-whitney.js';
import { incompleteBeta, studentTPpf } from './student-t.js';
import { trimmedMean, winsorized } from './trimmed-mean.js';
import { minimumDetectableEffect } from './power.js';
import { NotComparableError, ratioProblem } from './ratio.js';
import { checkSeed } from './rng.js';
import { Sample } from './sample.js';
import {
  COMPARISON_SCHEMA_VERSION,
  STATISTICS,
  type Comparison,
  type CompareOptions,
  type ConfidenceInterval,
  type TestResult,
} from './types.js';
import { decideVerdict } from './verdict.js';
import { wilcoxonSignedRank } from './wilcoxon.js';

/** Seed used when the caller gives none: results stay reproducible by default. */
export const DEFAULT_SEED = 1;

const KS_EXACT_MAX_CELLS = 1_000_000;

export type Resolved = Required<Omit<CompareOptions, 'blockLength' | 'test'>> & {
  test: NonNullable<CompareOptions['test']>;
  blockLength: number | 'auto';
};

/** Fills in defaults and rejects out-of-range options with a message naming the option. */
export function resolveCompareOptions(options: CompareOptions = {}): Resolved {
  const r: Resolved = {
    paired: options.paired ?? false,
    level: options.level ?? 0.99,
    resamples: options.resamples ?? 10_000,
    seed: options.seed ?? DEFAULT_SEED,
    statistic: options.statistic ?? ((options.paired ?? false) ? 'trimmed' : 'median'),
    method: options.method ?? 'bca',
    threshold: options.threshold ?? 0.05,
    biggerIsBetter: options.biggerIsBetter ?? false,
    blockLength: options.blockLength ?? 'auto',
    power: options.power ?? 0.8,
    test: options.test ?? 'rank',
  };
  if (!(r.level > 0 && r.level < 1)) {
    throw new RangeError(`level must be between 0 and 1 (e.g. 0.99), got ${r.level}`);
  }
  if (!Number.isInteger(r.resamples) || r.resamples < 100 || r.resamples > 10_000_000) {
    throw new RangeError(`resamples must be an integer from 100 to 10000000, got ${r.resamples}`);
  }
  checkSeed(r.seed);
  if (!(STATISTICS as readonly string[]).includes(r.statistic)) {
    throw new RangeError(`statistic must be ${STATISTICS.join(', ')}, got ${String(r.statistic)}`);
  }
  if (r.statistic === 'trimmed' && !r.paired) {
    throw new RangeError(
      'statistic trimmed is for paired comparisons (the trimmed mean of the pair ratios); unpaired, use median, mean or gmean',
    );
  }
  if (!['percentile', 'bca'].includes(r.method)) {
    throw new RangeError(`method must be percentile or bca, got ${String(r.method)}`);
  }
  if (!(r.threshold >= 0 && r.threshold < 10)) {
    throw new RangeError(`threshold must be a fraction ≥ 0 (0.05 = 5%), got ${r.threshold}`);
  }
  if (r.blockLength !== 'auto' && !(Number.isInteger(r.blockLength) && r.blockLength >= 1)) {
    throw new RangeError(`blockLength must be "auto" or an integer ≥ 1, got ${r.blockLength}`);
  }
  if (!(r.power > 0 && r.power < 1))
    throw new RangeError(`power must be in (0, 1), got ${r.power}`);
  if (r.test !== 'rank' && r.test !== 'trimmed-t') {
    throw new RangeError(`test must be rank or trimmed-t, got ${String(r.test)}`);
  }
  return r;
}

/**
 * Compares head against base: relative change head/base − 1 of the chosen statistic, its
 * bootstrap confidence interval, a rank test, the KS distance, the MDE and a verdict against
 * the practical threshold. Pure: the only randomness comes from the seeded generator.
 *
 * Unpaired: ratio of medians (or means / geometric means), sides resampled independently,
 * Mann–Whitney U. Paired (pairs i of base and head measured together): median (or geometric
 * mean) of pair ratios, pairs resampled — in moving blocks when they are autocorrelated —
 * and the Wilcoxon signed-rank test on the log ratios. The median is the default on both
 * designs: interference on a shared machine only ever adds time, to one side of a pair at a
 * time, and the median of the pair ratios ignores those spikes where the geometric mean
 * averages them in (BENCHMARKS.md measures the difference).
 *
 * Cost O(resamples · n) time, O(n + resamples) memory. `planComparison` + `finishComparison`
 * split the same work so the bootstrap in between can run elsewhere (on worker threads).
 */
export function compare(
  base: readonly number[],
  head: readonly number[],
  options: CompareOptions = {},
): Comparison {
  return finishComparison(planComparison(base, head, options));
}

/** A validated comparison waiting for its bootstrap distribution (plain data). */
export interface ComparisonPlan {
  options: Resolved;
  base: readonly number[];
  head: readonly number[];
  /**
   * Null when both sides are one and the same constant (nothing to resample), or when the
   * interval needs no resampling (`direct`).
   */
  bootstrap: BootstrapPlan | null;
  /** The paired trimmed mean: its interval is computed directly (Tukey–McLaughlin). */
  direct?: { statistic: 'trimmed'; blockLength: number };
  notes: string[];
}

/**
 * Validates the data and options and decides how to resample. Cost O(n log n). Throws a
 * RangeError for bad data or options, and its subclass `NotComparableError` for valid data
 * that form no relative change (see `ratioProblem`).
 */
export function planComparison(
  base: readonly number[],
  head: readonly number[],
  options: CompareOptions = {},
  earlierNotes: string[] = [],
): ComparisonPlan {
  const o = resolveCompareOptions(options);
  const b = new Sample(base, 'base');
  const h = new Sample(head, 'head');
  if (o.paired && b.n !== h.n) {
    throw new RangeError(
      `a paired comparison needs as many head values as base values; base has ${b.n}, head has ${h.n}`,
    );
  }
  const plan = { options: o, base: b.values, head: h.values, notes: [...earlierNotes] };
  const constant =
    b.ascending[0] === b.ascending[b.n - 1] && h.ascending[0] === h.ascending[h.n - 1];
  if (constant && b.ascending[0] === h.ascending[0]) {
    plan.notes.push(`every value on both sides is ${b.ascending[0]}: the change is exactly 0`);
    return { ...plan, bootstrap: null };
  }
  const problem = ratioProblem(b, h);
  if (problem !== null) {
    throw new NotComparableError({
      reason: problem,
      statistic: o.statistic,
      base: b.summary(),
      head: h.summary(),
    });
  }
  const zeros = h.values.filter((v) => v === 0).length;
  if (o.statistic === 'trimmed' && zeros > 0) {
    // a log ratio of −∞ has no trimmed mean with an interval; the median pair ratio has one
    return planComparison(base, head, { ...options, statistic: 'median' }, [
      ...earlierNotes,
      'the median pair ratio is used instead of the trimmed mean: a head of 0 has a log ratio of −∞',
    ]);
  }
  if (zeros > 0) {
    plan.notes.push(
      `${zeros} of ${h.n} head values are 0: a ratio of 0 to the base, a change of −100%`,
    );
  }
  const common = {
    base: b.values,
    head: h.values,
    statistic: o.statistic,
    resamples: o.resamples,
    seed: o.seed,
  };
  if (!o.paired) return { ...plan, bootstrap: { design: 'unpaired', ...common } };
  // the trimmed mean's standard error is the winsorized series' (trimmed-mean.ts): its
  // dependence is what matters, not that of a burst of wild pairs the trimming removes (a few
  // seconds of ±50% pairs among 60 of ±3% made blocks of 20 and an interval of [−41%, +69%])
  let blockLength = o.blockLength;
  if (blockLength === 'auto') {
    const lr = finiteLogRatios(logRatios(b.values, h.values));
    blockLength = autoBlockLength(o.statistic === 'trimmed' ? winsorized(lr, TRIM) : lr);
  }
  if (o.statistic === 'trimmed') {
    if (blockLength > 1) {
      plan.notes.push(
        o.test === 'trimmed-t'
          ? `pairs are autocorrelated: the interval and its trimmed-t test count ${blockLength} consecutive pairs as one`
          : `pairs are autocorrelated: the interval counts ${blockLength} consecutive pairs as one; the Wilcoxon p-value assumes independent pairs and may be too small`,
      );
    }
    return { ...plan, bootstrap: null, direct: { statistic: 'trimmed', blockLength } };
  }
  if (blockLength > 1) {
    plan.notes.push(
      `pairs are autocorrelated: resampled in blocks of ${blockLength} consecutive pairs; the Wilcoxon p-value assumes independent pairs and may be too small`,
    );
  }
  return { ...plan, bootstrap: { design: 'paired', ...common, blockLength } };
}

/**
 * Completes a plan: the bootstrap (computed here unless its distribution is given, e.g. from
 * `bootstrapChunks` on other threads), the interval, the tests and the verdict.
 */
export function finishComparison(plan: ComparisonPlan, distribution?: Float64Array): Comparison {
  const o = plan.options;
  const b = new Sample(plan.base, 'base');
  const h = new Sample(plan.head, 'head');
  const notes = [...plan.notes];
  if (plan.direct !== undefined) return trimmedComparison(b, h, o, plan.direct.blockLength, notes);
  if (plan.bootstrap === null) return identicalComparison(b, h, o, notes);
  const result = bootstrap(plan.bootstrap, distribution);
  if (plan.bootstrap.design === 'paired') {
    const blockLength = plan.bootstrap.blockLength;
    const ci = interval(result, o, blockLength > 1 ? 'block' : 'paired', notes);
    ci.blockLength = blockLength;
    const d = logRatios(b.values, h.values);
    if (o.statistic === 'median') widenToOrderStatistics(ci, d, blockLength, notes);
    const finite = finiteLogRatios(d);
    const w = wilcoxonSignedRank(finite);
    const test = testResult('wilcoxon-signed-rank', w.method, w.statistic, w.pValue);
    const mde = minimumDetectableEffect(b.n / blockLength, spreadFor(o.statistic, finite), {
      level: o.level,
      power: o.power,
      paired: true,
    });
    return finish(o, b, h, result.observed, ci, test, mde, notes);
  }
  const ci = interval(result, o, 'unpaired', notes);
  const u = mannWhitneyU(h.values, b.values);
  const test = testResult('mann-whitney-u', u.method, u.statistic, u.pValue);
  // A head whose median is 0 has no relative spread of its own: it is taken against the
  // base's level, the one the change is relative to.
  const relative = (s: Sample): number =>
    o.statistic === 'median'
      ? spreadFor('median', s.values) / (s.median() > 0 ? s.median() : b.median())
      : s.coefficientOfVariation();
  const pooledCv = Math.sqrt((relative(b) ** 2 + relative(h) ** 2) / 2);
  const mde = minimumDetectableEffect(Math.min(b.n, h.n), pooledCv, {
    level: o.level,
    power: o.power,
  });
  return finish(o, b, h, result.observed, ci, test, mde, notes);
}

/**
 * A bootstrap of the median undercovers at small n (its distribution is lumpy), so the paired
 * median's interval is never narrower than the distribution-free one from order statistics
 * (the sign test's; `medianInterval`), which holds for any continuous distribution of
 * independent pairs. Widens `ci` in place and says so in a note when that changed it.
 */
function widenToOrderStatistics(
  ci: ConfidenceInterval,
  logRatios: readonly number[],
  blockLength: number,
  notes: string[],
): void {
  const exact = medianInterval(sorted(logRatios), ci.level, blockLength);
  const lower = Math.expm1(exact.lower);
  const upper = Math.expm1(exact.upper);
  if (exact.coverage < ci.level) {
    notes.push(
      `only ${exact.effectiveN} independent pairs: no interval from order statistics reaches ${ci.level * 100}%; the range of the pair ratios covers the median with probability ${(exact.coverage * 100).toFixed(1)}%`,
    );
  }
  if (lower >= ci.lower && upper <= ci.upper) return;
  ci.lower = Math.min(ci.lower, lower);
  ci.upper = Math.max(ci.upper, upper);
  notes.push(
    `interval widened to the distribution-free one of the median pair ratio (order statistics ${exact.rank} and ${exact.effectiveN + 1 - exact.rank} of ${exact.effectiveN}${blockLength > 1 ? `, ${blockLength} pairs per block` : ''})`,
  );
}

/** √(π/2): the sample median's standard error over the mean's, for normal data. */
const MEDIAN_EFFICIENCY = Math.sqrt(Math.PI / 2);
/** Scales the median absolute deviation to σ for normal data. */
const MAD_TO_SIGMA = 1.482602218505602;

/**
 * The spread per value that the statistic's standard error grows from (SE ≈ spread/√n), for
 * the MDE: the standard deviation for means, and for the median √(π/2)·1.4826·MAD — robust,
 * so the rare slow outliers the median ignores do not inflate the MDE it reports either.
 * Falls back to the standard deviation when more than half the values are equal (MAD = 0).
 */
function spreadFor(statistic: Resolved['statistic'], values: readonly number[]): number {
  if (statistic !== 'median') return standardDeviation(values);
  const mad = medianAbsoluteDeviation(values);
  return mad > 0 ? MEDIAN_EFFICIENCY * MAD_TO_SIGMA * mad : standardDeviation(values);
}

/** log(head_i/base_i) per pair: −∞ where the head is 0 (base values are positive here). */
function logRatios(base: readonly number[], head: readonly number[]): number[] {
  return base.map((v, i) => Math.log(head[i]! / v));
}

/**
 * The log ratios with each −∞ (a head of 0) replaced by one finite stand-in, below 0 and
 * further from it than any other: the signs and the ranks of |d|, all the Wilcoxon test uses,
 * stay those of the limit, and the block length and the spread get finite input.
 */
function finiteLogRatios(d: readonly number[]): number[] {
  let largest = 0;
  for (const x of d) if (x !== -Infinity && Math.abs(x) > largest) largest = Math.abs(x);
  return d.map((x) => (x === -Infinity ? -(largest + 1) : x));
}

/** The interval of a bootstrap result as recorded in the Comparison; notes BCa fallbacks. */
function interval(
  result: BootstrapResult,
  o: Resolved,
  bootstrap: ConfidenceInterval['bootstrap'],
  notes: string[],
): ConfidenceInterval {
  const endpoints = bootstrapInterval(result, o.level, o.method);
  if (endpoints.note !== undefined) notes.push(endpoints.note);
  return {
    level: o.level,
    lower: endpoints.lower,
    upper: endpoints.upper,
    method: endpoints.method,
    resamples: o.resamples,
    seed: o.seed,
    bootstrap,
  };
}

function testResult(
  name: TestResult['name'],
  method: TestResult['method'],
  statistic: number,
  pValue: number,
): TestResult {
  return { name, method, statistic, pValue, pValueAdjusted: pValue, adjustment: 'none' };
}

function finish(
  o: Resolved,
  b: Sample,
  h: Sample,
  change: number,
  ci: ConfidenceInterval,
  test: TestResult,
  mde: number,
  notes: string[],
): Comparison {
  // The exact KS distribution costs O(n·m); beyond a million cells the asymptotic one is
  // accurate to far better than the descriptive use made of it here.
  const ks = ksTwoSample(b.values, h.values, {
    method: b.n * h.n > KS_EXACT_MAX_CELLS ? 'asymptotic' : 'auto',
  });
  const { verdict, moreSamplesNeeded } = decideVerdict({
    change,
    lower: ci.lower,
    upper: ci.upper,
    threshold: o.threshold,
    pValueAdjusted: test.pValueAdjusted,
    alpha: 1 - o.level,
    biggerIsBetter: o.biggerIsBetter,
    n: Math.min(b.n, h.n),
  });
  return {
    schemaVersion: COMPARISON_SCHEMA_VERSION,
    change,
    ci,
    test,
    ks: { statistic: ks.statistic, pValue: ks.pValue, method: ks.method },
    n: { base: b.n, head: h.n },
    cv: { base: b.coefficientOfVariation(), head: h.coefficientOfVariation() },
    base: b.summary(),
    head: h.summary(),
    paired: o.paired,
    statistic: o.statistic,
    biggerIsBetter: o.biggerIsBetter,
    threshold: o.threshold,
    mde,
    power: o.power,
    verdict,
    moreSamplesNeeded,
    seed: o.seed,
    notes,
  };
}

/**
 * The paired trimmed mean: the 20% trimmed mean of the log pair ratios, its Tukey–McLaughlin
 * interval (`trimmedMean`) mapped back to a relative change, the Wilcoxon test and an MDE
 * from the interval's own standard error. With autocorrelated pairs (block length L > 1) the
 * standard error grows by √L and the degrees of freedom are those of n/L values.
 */
function trimmedComparison(
  b: Sample,
  h: Sample,
  o: Resolved,
  blockLength: number,
  notes: string[],
): Comparison {
  const finite = finiteLogRatios(logRatios(b.values, h.values));
  const interval = pairedTrimmedInterval(sorted(finite), o.level, blockLength);
  const ci: ConfidenceInterval = {
    level: o.level,
    lower: Math.expm1(interval.lower),
    upper: Math.expm1(interval.upper),
    method: o.method,
    resamples: o.resamples,
    seed: o.seed,
    bootstrap: blockLength > 1 ? 'block' : 'paired',
    blockLength,
    direct: 'trimmed-t',
  };
  const test =
    o.test === 'trimmed-t'
      ? trimmedTTest(interval)
      : (() => {
          const w = wilcoxonSignedRank(finite);
          return testResult('wilcoxon-signed-rank', w.method, w.statistic, w.pValue);
        })();
  const mde = minimumDetectableEffect(
    interval.effectiveN,
    interval.standardError * Math.sqrt(interval.effectiveN),
    { level: o.level, power: o.power, paired: true },
  );
  return finish(o, b, h, Math.expm1(interval.estimate), ci, test, mde, notes);
}

/**
 * The Tukey–McLaughlin one-sample trimmed t test of "the trimmed mean of the log ratios is 0",
 * the test that the interval inverts: t = estimate / standard error with n' − 2g − 1 degrees
 * of freedom (n' = n/L effective pairs, g = ⌊0.2·n'⌋), p = 2·P(T > |t|). It rejects at α
 * exactly when the level 1 − α interval excludes 0, so a call never rests on a test the
 * interval disagrees with, and — unlike an exact rank test, whose smallest p-value is 2/2ⁿ —
 * it can reject at any family size once the interval is narrow enough. Below TRIMMED_MIN_N
 * effective pairs there is no standard error: p = 1.
 */
export function trimmedTTest(interval: ReturnType<typeof pairedTrimmedInterval>): TestResult {
  const n = interval.effectiveN;
  if (n < TRIMMED_MIN_N) return testResult('trimmed-t', 'asymptotic', 0, 1);
  const df = Math.max(1, n - 2 * Math.floor(TRIM * n) - 1);
  if (!(interval.standardError > 0)) {
    return testResult('trimmed-t', 'exact', 0, interval.estimate === 0 ? 1 : 0);
  }
  const t = interval.estimate / interval.standardError;
  // 2·P(T > |t|) = I_{df/(df+t²)}(df/2, 1/2), computed as the tail itself (not 1 − CDF), so
  // that the tiny p-values a large family needs keep their precision
  const p = Math.min(1, incompleteBeta(df / (df + t * t), df / 2, 0.5));
  return testResult('trimmed-t', 'asymptotic', t, p);
}

/** Fewest pairs a trimmed-mean interval is computed from (fewer: the whole range). */
const TRIMMED_MIN_N = 5;

/**
 * The trimmed mean's interval on the log scale, for n/blockLength effective pairs. Below
 * TRIMMED_MIN_N effective pairs there is no trustworthy standard error: the interval is then
 * the range of the values, like the order-statistic interval at tiny n.
 */
export function pairedTrimmedInterval(
  ascending: Float64Array,
  level: number,
  blockLength: number,
): { estimate: number; lower: number; upper: number; standardError: number; effectiveN: number } {
  const n = ascending.length;
  const effectiveN = Math.max(1, Math.floor(n / blockLength));
  if (effectiveN < TRIMMED_MIN_N || ascending[0] === ascending[n - 1]) {
    const t = n >= 2 ? trimmedMean(ascending, level, TRIM) : null;
    const estimate = t?.estimate ?? ascending[0]!;
    return {
      estimate,
      lower: ascending[0]!,
      upper: ascending[n - 1]!,
      standardError: (ascending[n - 1]! - ascending[0]!) / 2,
      effectiveN,
    };
  }
  const t = trimmedMean(ascending, level, TRIM);
  if (blockLength === 1) return { ...t, effectiveN };
  // n/L independent values: standard error × √L, t quantile with their degrees of freedom
  const g = Math.floor(TRIM * effectiveN);
  const df = Math.max(1, effectiveN - 2 * g - 1);
  const standardError = t.standardError * Math.sqrt(blockLength);
  const half = studentTPpf(1 - (1 - level) / 2, df) * standardError;
  return {
    estimate: t.estimate,
    lower: t.estimate - half,
    upper: t.estimate + half,
    standardError,
    effectiveN,
  };
}

/** Share of the log ratios trimmed from each end (Wilcox's recommended 20%). */
export const TRIM = 0.2;

/** Both sides are one and the same constant (e.g. 0 allocations): nothing changed, exactly. */
function identicalComparison(b: Sample, h: Sample, o: Resolved, notes: string[]): Comparison {
  const ci: ConfidenceInterval = {
    level: o.level,
    lower: 0,
    upper: 0,
    method: o.method,
    resamples: o.resamples,
    seed: o.seed,
    bootstrap: o.paired ? 'paired' : 'unpaired',
  };
  const test = o.paired
    ? testResult('wilcoxon-signed-rank', 'exact', 0, 1)
    : testResult('mann-whitney-u', 'exact', (b.n * h.n) / 2, 1);
  return finish(o, b, h, 0, ci, test, 0, notes);
}
