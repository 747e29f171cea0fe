/**
 * A group-sequential design for suites (`suite.allocation: adaptive`): each benchmark is
 * analysed only at scheduled looks, after N₁ < N₂ < … < N_K pairs fixed in advance, and the
 * error 1 − level is spent over the looks: look k's interval has level 1 − (1 − level)·w_k
 * with Σ w_k = 1. By the union bound, with probability ≥ level every look's interval of a
 * benchmark covers its true change at once, so the interval at whatever look the benchmark
 * stopped covers it too — whatever rule decided when it stopped (its own interval, the other
 * benchmarks', the budget). The same holds for the test: p_seq = min(1, p_k / w_k) at the
 * stopping look k is a valid p-value, so Holm over the suite's p_seq keeps the family-wise
 * error (docs/suites.md gives the argument, tests/stats/sequential.test.ts simulates it).
 */

export interface LookSchedule {
  /** Pairs at each look, increasing. */
  pairs: number[];
  /** Share of 1 − level spent at each look; sums to 1. */
  weights: number[];
}

/**
 * The schedule: `first` pairs, then × `growth` at each further look, `looks` in all; the
 * weights grow with the look (w_k ∝ k), so the early looks, where clear cases stop, spend
 * little, and the last look, where the doubtful ones end, gets most.
 */
export function lookSchedule(first: number, growth: number, looks: number): LookSchedule {
  if (!(Number.isInteger(first) && first >= 2)) {
    throw new RangeError(`the first look needs an integer ≥ 2 pairs, got ${first}`);
  }
  if (!(growth > 1)) throw new RangeError(`growth must be > 1, got ${growth}`);
  if (!(Number.isInteger(looks) && looks >= 1 && looks <= 20)) {
    throw new RangeError(`looks must be an integer from 1 to 20, got ${looks}`);
  }
  const pairs: number[] = [];
  for (let k = 0; k < looks; k++) {
    const n = Math.round(first * growth ** k);
    pairs.push(Math.max(n, (pairs.at(-1) ?? 0) + 1));
  }
  const total = (looks * (looks + 1)) / 2;
  const weights = pairs.map((_, k) => (k + 1) / total);
  return { pairs, weights };
}

/** The level of look k's (0-based) own interval, spending its share of 1 − level. */
export function lookLevel(level: number, schedule: LookSchedule, look: number): number {
  const w = schedule.weights[look];
  if (w === undefined)
    throw new RangeError(`no look ${look + 1} in a schedule of ${schedule.weights.length}`);
  return 1 - (1 - level) * w;
}

/** The p-value of look k (0-based) made valid for the whole sequential design. */
export function sequentialPValue(p: number, schedule: LookSchedule, look: number): number {
  const w = schedule.weights[look];
  if (w === undefined)
    throw new RangeError(`no look ${look + 1} in a schedule of ${schedule.weights.length}`);
  return Math.min(1, p / w);
}

/** The last look whose pairs `n` pairs reach, or −1 before the first. */
export function lookReached(schedule: LookSchedule, n: number): number {
  let look = -1;
  schedule.pairs.forEach((pairs, k) => {
    if (n >= pairs) look = k;
  });
  return look;
}

/**
 * The fewest pairs at which a call can survive the suite's adjustment when the test is an
 * exact rank test: the smallest two-sided Wilcoxon p-value of n pairs is 2/2ⁿ (all signs
 * alike), and a call needs p/w · m < α (the look's share w, Holm's largest factor m, the
 * family size). So n > 1 + log₂(m / (w·α)); e.g. 18 for 100 benchmarks, w = 0.1, α = 0.01.
 * A schedule whose first look has fewer pairs can never call a change there, whatever the
 * data. (The trimmed-t test a suite uses has no such floor; the schedule still keeps it, so
 * the rank test reported beside it can agree.)
 */
export function decisionFloor(familySize: number, weight: number, alpha: number): number {
  if (!(familySize >= 1 && weight > 0 && weight <= 1 && alpha > 0 && alpha < 1)) {
    throw new RangeError(
      `decisionFloor needs familySize ≥ 1, weight in (0, 1], alpha in (0, 1); got ${familySize}, ${weight}, ${alpha}`,
    );
  }
  return Math.floor(1 + Math.log2(familySize / (weight * alpha))) + 1;
}

/**
 * The fewest pairs at which a suite calls a change (`minPairsToCall` of verdict.ts): a look
 * with fewer flags the change for a later look (the confirming one), never calls it. Why: a
 * benchmark whose processes fall into discrete modes (memory layout, a process-long slow
 * phase of a shared vCPU: 1.85 to 2 times as slow) can have every process of one version in
 * one mode and a minority of the other's in another; at 5 pairs the 20%-trimmed mean trims
 * that minority away and its interval shrinks to the majority's. Simulated (base slow by
 * 1.85 times in half its processes, head never, head 32% slower than base's fast mode: the
 * trimmed mean of the log ratios −2.8%, inside ±5%; 20,000 experiments a size), the 99%
 * interval called a change beyond ±5% in 37.6% of experiments at 5 pairs, 7.0% at 8, 3.8% at
 * 12 (`npm run bench:process-modes`). Real: itertools' `batching/nth/2` ran at 2.83 or at
 * 5.2 µs a process in one build and at 3.74 µs in another; two long runs of the same builds
 * read +0.5% and +28.8%, and a 2-minute run called it at 5 pairs (BENCHMARKS.md, "Large
 * suites"). 8 keeps the screening look of a 100-benchmark Go suite at 2 minutes (8–12 pairs)
 * able to call, and sends a 131-benchmark criterion suite's (5 pairs) to its confirming look.
 */
export const MIN_PAIRS_TO_CALL = 8;
