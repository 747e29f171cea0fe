import { mean, median, quantile } from '../stats/descriptive.js';
import { createRng } from '../stats/rng.js';

export interface RepetitionError {
  repetitions: number;
  /** 2.5% and 97.5% quantiles of the relative error of the median of that many runs. */
  lower: number;
  upper: number;
  /** Median absolute relative error. */
  typical: number;
  subsamples: number;
}

/**
 * Henning et al.'s repetitions-vs-error analysis (FSE'25 §5.5, Fig. 6): how far from the
 * long-run mean is the median of r runs? For each r, `subsamples` random sets of r distinct
 * runs (seeded) give errors median(set)/mean(all) − 1; the 95% range and the typical absolute
 * error say what a budget of r repetitions buys. Values are relative to their segment's
 * median (steps on main divided out). Only r ≤ n/2 are reported. Pure.
 */
export function repetitionErrors(
  relative: readonly number[],
  options: { seed: number; subsamples?: number; repetitions?: readonly number[] },
): RepetitionError[] {
  const values = relative.map((r) => 1 + r);
  const n = values.length;
  const subsamples = options.subsamples ?? 2000;
  const truth = mean(values);
  const rng = createRng(options.seed);
  const out: RepetitionError[] = [];
  for (const r of options.repetitions ?? [1, 2, 3, 5, 9, 15]) {
    if (r > n / 2) break;
    const errors = new Array<number>(subsamples);
    const pool = [...values];
    for (let s = 0; s < subsamples; s++) {
      // partial Fisher–Yates: the first r of pool are a uniform set of r distinct runs
      for (let i = 0; i < r; i++) {
        const j = i + rng.nextIndex(n - i);
        [pool[i], pool[j]] = [pool[j]!, pool[i]!];
      }
      errors[s] = median(pool.slice(0, r)) / truth - 1;
    }
    out.push({
      repetitions: r,
      lower: quantile(errors, 0.025),
      upper: quantile(errors, 0.975),
      typical: median(errors.map(Math.abs)),
      subsamples,
    });
  }
  return out;
}
