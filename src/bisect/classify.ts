/**
 * Where a probe (a duet of a candidate commit against one end of the range) puts the
 * candidate on the way from good to bad. Pure.
 */

import type { ChangeInterval, ProbeClass } from '../contracts/bisect.js';

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
 * and the confirmed change good → bad. The interval is the probe's, widened by the
 * confirmation's relative uncertainty (which scales the distance from `end`), the two added
 * in quadrature: a candidate equal to bad is not put "in between" because the confirmation's
 * estimate came out a little large.
 */
export function positionOf(
  probe: ChangeInterval,
  end: 'good' | 'bad',
  confirmed: ChangeInterval,
): Position {
  const d = Math.log1p(confirmed.change);
  if (!(Math.abs(d) > 0)) throw new RangeError('the confirmed change must not be 0');
  const spread = relativeHalfWidth(confirmed);
  const ref = end === 'good' ? 0 : 1;
  const [s, a, b] = [probe.change, probe.lower, probe.upper].map((x) => Math.log1p(x) / d) as [
    number,
    number,
    number,
  ];
  const scale = Math.abs(s) * spread;
  return {
    fraction: ref + s,
    lower: ref + s - Math.hypot(s - Math.min(a, b), scale),
    upper: ref + s + Math.hypot(Math.max(a, b) - s, scale),
  };
}

/** Half the width of a change's interval in log space, relative to the change's log. */
export function relativeHalfWidth(c: ChangeInterval): number {
  return (Math.log1p(c.upper) - Math.log1p(c.lower)) / 2 / Math.abs(Math.log1p(c.change));
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
 * The class of a position, from three hypotheses: good's level (the zone around 0), bad's
 * (the zone around 1), or in between. Like good: the interval rules bad's zone out but not
 * good's, and the estimate is nearer good than bad; like bad, the mirror; in between: the
 * interval rules both zones out (part of the change is there: it is spread over several
 * commits). Anything else is unclear (more pairs may settle it).
 *
 * The estimate need not lie inside good's zone: with a threshold much smaller than the change
 * (1% against a 20% step), that zone is narrower than a probe's noise, and a small systematic
 * offset between two checkouts of the same code (their paths, their files' places in the page
 * cache) keeps the estimate outside it however many pairs are added — every probe stayed
 * unclear and a 20% step went unfound. A partial step the interval cannot tell from an end is
 * taken for that end's level, as a plain bisection would; its confirmation duet then says how
 * large the located step is.
 */
export function classify(position: Position, zone: number): ProbeClass {
  const notGood = position.lower > zone;
  const notBad = position.upper < 1 - zone;
  if (notGood && notBad) return 'in-between';
  if (notBad && position.fraction < 0.5) return 'like-good';
  if (notGood && position.fraction > 0.5) return 'like-bad';
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
