import type { Sample } from './sample.js';
import type { NotComparable } from './types.js';

/**
 * Raised by `compare` for data that were measured but form no relative change. It is not a
 * failure of the benchmark: callers that judge many metrics report it as "not comparable"
 * and let the others decide; a caller with nothing else to report shows it as an error.
 */
export class NotComparableError extends RangeError {
  constructor(readonly notComparable: NotComparable) {
    super(`not comparable: ${notComparable.reason}`);
    this.name = 'NotComparableError';
  }
}

/**
 * Why head/base − 1 cannot be formed from these samples, or null when it can. It needs every
 * base value > 0, so that no resample has a base statistic of 0, and head values ≥ 0: a head
 * of 0 is a ratio of 0, a change of −100% (a throughput that fell to 0 is a regression, not
 * something to skip). A value below 0 makes any ratio meaningless. O(n).
 */
export function ratioProblem(base: Sample, head: Sample): string | null {
  for (const s of [base, head]) {
    const i = s.values.findIndex((v) => v < 0);
    if (i >= 0) {
      return `${s.label} value #${i + 1} is ${s.values[i]}: a relative change (head/base − 1) needs values that are not negative`;
    }
  }
  const zeros = base.values.filter((v) => v === 0).length;
  if (zeros === base.n) {
    return 'base values are all 0: a relative change (head/base − 1) is undefined';
  }
  if (zeros > 0) {
    return `${zeros} of ${base.n} base values are 0: a relative change (head/base − 1) needs every base value above 0`;
  }
  return null;
}
