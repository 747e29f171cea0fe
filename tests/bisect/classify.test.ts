import { classify, positionOf, zoneOf } from '../../src/bisect/classify.js';

const confirmed = { change: 0.3, lower: 0.28, upper: 0.32, level: 0.99 };

describe('probe classification', () => {
  it('places a candidate between good (0) and bad (1) from a duet against either end', () => {
    const likeBad = positionOf(
      { change: 0.3, lower: 0.27, upper: 0.33, level: 0.99 },
      'good',
      confirmed,
    );
    expect(likeBad.fraction).toBeCloseTo(1, 10);
    const sameFromBad = positionOf(
      { change: 0, lower: -0.02, upper: 0.02, level: 0.99 },
      'bad',
      confirmed,
    );
    expect(sameFromBad.fraction).toBeCloseTo(1, 10);
    // half the change in log space: +14.02% of +30%
    const half = positionOf(
      { change: Math.sqrt(1.3) - 1, lower: 0.12, upper: 0.16, level: 0.99 },
      'good',
      confirmed,
    );
    expect(half.fraction).toBeCloseTo(0.5, 10);
    // the confirmation's own spread widens the interval
    expect(likeBad.upper - likeBad.lower).toBeGreaterThan(
      (Math.log(1.33) - Math.log(1.27)) / Math.log(1.3),
    );
  });

  it('like good, like bad, in between, unclear', () => {
    const zone = zoneOf(confirmed, 0.05);
    expect(zone).toBeCloseTo(Math.log(1.05) / Math.log(1.3), 10);
    const at = (change: number, half: number) =>
      classify(
        positionOf(
          { change, lower: change - half, upper: change + half, level: 0.99 },
          'good',
          confirmed,
        ),
        zone,
      );
    expect(at(0, 0.02)).toBe('like-good');
    expect(at(-0.1, 0.02)).toBe('like-good');
    expect(at(0.3, 0.02)).toBe('like-bad');
    expect(at(0.4, 0.02)).toBe('like-bad');
    expect(at(0.15, 0.02)).toBe('in-between');
    expect(at(0.15, 0.2)).toBe('unclear');
    expect(at(0.03, 0.03)).toBe('like-good');
    // outside good's zone (±5% of +30%) but bad ruled out and good not: like good, as a
    // plain bisection would take it (the threshold is no bound on a probe's offset)
    expect(at(0.07, 0.03)).toBe('like-good');
    expect(at(0.23, 0.03)).toBe('like-bad');
    // neither end ruled out, or the estimate nearer the end the interval rules out
    expect(at(0.3, 0.3)).toBe('unclear');
    expect(at(0.14, 0.1)).toBe('unclear');
    expect(at(-0.2, 0.19)).toBe('like-good');
  });

  it('a change just beyond the threshold keeps a third for each zone', () => {
    expect(zoneOf({ change: 0.06, lower: 0.055, upper: 0.065, level: 0.99 }, 0.05)).toBe(1 / 3);
  });
});
