import {
  coefficientOfVariation,
  geometricMean,
  mean,
  medianAbsoluteDeviation,
  quantileSorted,
  sorted,
  standardDeviation,
} from './descriptive.js';
import type { SideSummary } from './types.js';

/**
 * A validated set of measurements: at least two finite numbers. Construction is the only
 * place data are checked, so everything downstream may assume clean input.
 */
export class Sample {
  readonly values: readonly number[];
  private sortedCache: Float64Array | undefined;

  /** @param label names the data in error messages ("base", "head", a file name...). */
  constructor(
    values: readonly number[],
    readonly label = 'sample',
  ) {
    if (values.length < 2) {
      throw new RangeError(`${label}: needs at least 2 values, got ${values.length}`);
    }
    values.forEach((v, i) => {
      if (typeof v !== 'number' || !Number.isFinite(v)) {
        throw new RangeError(
          `${label}: value #${i + 1} is ${String(v)}; only finite numbers are accepted`,
        );
      }
    });
    this.values = Object.freeze([...values]);
  }

  get n(): number {
    return this.values.length;
  }

  /** Ascending order statistics (computed once). */
  get ascending(): Float64Array {
    this.sortedCache ??= sorted(this.values);
    return this.sortedCache;
  }

  /** Quantile by Hyndman & Fan definition 7 (linear interpolation, NumPy's default). */
  quantile(p: number): number {
    return quantileSorted(this.ascending, p);
  }

  median(): number {
    return this.quantile(0.5);
  }

  mean(): number {
    return mean(this.values);
  }

  /** Geometric mean; null when some value is not positive. */
  geometricMean(): number | null {
    return geometricMean(this.values);
  }

  standardDeviation(): number {
    return standardDeviation(this.values);
  }

  coefficientOfVariation(): number {
    return coefficientOfVariation(this.values);
  }

  /** Unscaled median absolute deviation. */
  mad(): number {
    return medianAbsoluteDeviation(this.values);
  }

  allPositive(): boolean {
    return this.ascending[0]! > 0;
  }

  summary(): SideSummary {
    const asc = this.ascending;
    return {
      n: this.n,
      median: this.median(),
      mean: this.mean(),
      gmean: this.geometricMean(),
      sd: this.standardDeviation(),
      cv: this.coefficientOfVariation(),
      mad: this.mad(),
      min: asc[0]!,
      max: asc[asc.length - 1]!,
    };
  }
}
