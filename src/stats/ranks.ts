/**
 * Shared pieces of the two-sample and paired tests: the alternative hypothesis, input
 * checks, and average ranks with tie-group sizes (scipy's `rankdata(method='average')`).
 */

/** Which tail a test looks at; `less` means the first sample tends to be smaller. */
export type Alternative = 'two-sided' | 'less' | 'greater';

export const ALTERNATIVES: readonly Alternative[] = ['two-sided', 'less', 'greater'];

/** `value` if it is one of `accepted`, `accepted[0]` when undefined, else a RangeError. */
export function checkOption<T extends string>(
  name: string,
  value: string | undefined,
  accepted: readonly T[],
): T {
  if (value === undefined) return accepted[0] as T;
  if (!(accepted as readonly string[]).includes(value)) {
    throw new RangeError(
      `options.${name} must be one of ${accepted.join(', ')}, got ${JSON.stringify(value)}`,
    );
  }
  return value as T;
}

/** Throws a RangeError naming `name` unless `values` holds ≥ `min` finite numbers. */
export function checkSample(name: string, values: readonly number[], min = 1): void {
  if (!Array.isArray(values) || values.length < min) {
    const got = Array.isArray(values) ? `${values.length} values` : String(values);
    throw new RangeError(`${name} must hold at least ${min} value(s), got ${got}`);
  }
  const bad = values.findIndex((v) => typeof v !== 'number' || !Number.isFinite(v));
  if (bad >= 0) {
    throw new RangeError(`${name}[${bad}] must be a finite number, got ${String(values[bad])}`);
  }
}

export interface Ranking {
  /** Rank of each input value (1-based), ties sharing the average of their positions. */
  ranks: number[];
  /** Size of every group of equal values, in increasing order of value (1 for untied). */
  tieSizes: number[];
}

/** Average ranks of `values` with the sizes of the tie groups. Cost O(n log n). */
export function averageRanks(values: readonly number[]): Ranking {
  const order = values.map((_, i) => i).sort((a, b) => values[a]! - values[b]! || a - b);
  const ranks = new Array<number>(values.length);
  const tieSizes: number[] = [];
  for (let start = 0; start < order.length;) {
    let end = start + 1;
    while (end < order.length && values[order[end]!] === values[order[start]!]) end++;
    const rank = (start + 1 + end) / 2; // mean of positions start+1 … end
    for (let k = start; k < end; k++) ranks[order[k]!] = rank;
    tieSizes.push(end - start);
    start = end;
  }
  return { ranks, tieSizes };
}

/** Σ (t³ − t) over the tie groups, the tie correction of rank-test variances. */
export function tieTerm(tieSizes: readonly number[]): number {
  let sum = 0;
  for (const t of tieSizes) sum += t * t * t - t;
  return sum;
}
