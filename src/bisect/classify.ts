/**
 * Where a probe (a duet of a candidate commit against one end of the range) puts the
 * candidate on the way from good to bad. Pure.
 */

/** A relative change (head/base − 1) with its interval, as a duet's comparison gives it. */
export interface ChangeInterval {
  change: number;
  lower: number;
  upper: number;
  level: number;
}

export type ProbeClass = 'like-good' | 'like-bad' | 'in-between' | 'unclear';

/**
 * The candidate's position as a fraction of the confirmed change: 0 is good, 1 is bad, in log
 * space (a +10% then a +10% step sit at 0.5 of a +21% change), with an interval.
 */
export interface Position {
  fraction: number;
  lower: number;
  upper: number;
}

/**
 * The position of a candidate from its duet against `end` (its change = candidate/end − 1)
 * and the confirmed change good → bad. The interval is the probe's, widened by the relative
 * half-width of the confirmed change (which scales it): a candidate equal to bad is not put
 * "in between" because the confirmation's estimate came out a little large.
 */
export function positionOf(
  probe: ChangeInterval,
  end: 'good' | 'bad',
  confirmed: ChangeInterval,
): Position {
  const d = Math.log1p(confirmed.change);
  if (!(Math.abs(d) > 0)) throw new RangeError('the confirmed change must not be 0');
  const spread = (Math.log1p(confirmed.upper) - Math.log1p(confirmed.lower)) / 2 / Math.abs(d);
  const ref = end === 'good' ? 0 : 1;
  const offsets = [probe.change, probe.lower, probe.upper].map((x) => Math.log1p(x) / d);
  const [s, a, b] = offsets as [number, number, number];
  const lo = Math.min(a, b);
  const hi = Math.max(a, b);
  return {
    fraction: ref + s,
    lower: ref + lo - Math.abs(lo) * spread,
    upper: ref + hi + Math.abs(hi) * spread,
  };
}

/**
 * The half-width of the "like good" and "like bad" zones, as a fraction of the change: the
 * practical threshold in units of the confirmed change, at most a third (so that a change
 * just beyond the threshold still leaves room for "in between").
 */
export function zoneOf(confirmed: ChangeInterval, threshold: number): number {
  return Math.min(Math.log1p(threshold) / Math.abs(Math.log1p(confirmed.change)), 1 / 3);
}

/**
 * The class of a position: like good when its whole interval lies at or below the zone
 * around good (within the threshold of good, or beyond good away from bad); like bad when
 * it lies at or above the zone around bad; in between when it lies strictly between the two
 * zones (part of the change is there: it is spread over several commits); unclear when the
 * interval reaches into two regions (more pairs may settle it).
 */
export function classify(position: Position, zone: number): ProbeClass {
  if (position.upper <= zone) return 'like-good';
  if (position.lower >= 1 - zone) return 'like-bad';
  if (position.lower > zone && position.upper < 1 - zone) return 'in-between';
  return 'unclear';
}

/** Whether a duet's interval calls a change: wholly beyond +threshold or beyond −threshold. */
export function beyondThreshold(c: ChangeInterval, threshold: number): boolean {
  return c.lower > threshold || c.upper < -threshold;
}

/** Whether a duet's interval says no change that matters: wholly within ±threshold. */
export function withinThreshold(c: ChangeInterval, threshold: number): boolean {
  return c.lower >= -threshold && c.upper <= threshold;
}
