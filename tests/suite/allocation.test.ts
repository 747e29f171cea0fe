import { nextStage, type UnitState } from '../../src/suite/allocation.js';
import { lookSchedule } from '../../src/stats/sequential.js';

const schedule = lookSchedule(20, 3, 4); // 20, 60, 180, 540 pairs
const unit = (name: string, over: Partial<UnitState> = {}): UnitState => ({
  name,
  pairs: 20,
  look: 0,
  secondsPerPair: 0.05,
  decision: 'open',
  pairsToSettle: 30,
  ...over,
});

describe('adaptive allocation across a suite', () => {
  it('screens breadth first: every benchmark gets its share of the first look before any gets more', () => {
    const fresh = (name: string, pairs = 0) => unit(name, { pairs, look: -1, decision: null });
    // one pair per round: half the first look per sweep
    expect(nextStage([fresh('a'), fresh('b')], schedule, 1, 0.1)).toEqual([
      { name: 'a', pairs: 10, look: 0 },
      { name: 'b', pairs: 10, look: 0 },
    ]);
    // 10 repetitions per process: one round per sweep; a unit done screening waits for the rest
    expect(
      nextStage([fresh('a', 10), fresh('b', 0), unit('c')], schedule, 1, 0.1, false, 10),
    ).toEqual([
      { name: 'a', pairs: 10, look: 0 },
      { name: 'b', pairs: 10, look: 0 },
    ]);
    // never past the first look
    expect(nextStage([fresh('a', 15)], schedule, 1, 0.1, false, 10)).toEqual([
      { name: 'a', pairs: 5, look: 0 },
    ]);
  });

  it('confirms what looks changed beyond the threshold first, the largest change first', () => {
    const stage = nextStage(
      [
        unit('cheap', { pairsToSettle: 5, change: 0.01 }),
        unit('big', { pairsToSettle: 500, change: 0.38 }),
        unit('bigger', { pairsToSettle: null, change: 0.6 }),
        unit('borderline', { pairsToSettle: 50, change: 0.04 }),
      ],
      schedule,
      100,
      0.1,
      false,
      1,
      0.05,
    );
    expect(stage.map((s) => s.name)).toEqual(['bigger', 'big', 'cheap', 'borderline']);
  });

  it('gives time only to open benchmarks, up to their next look, cheapest to settle first', () => {
    const stage = nextStage(
      [
        unit('settled', { decision: 'settled' }),
        unit('costly', { pairsToSettle: 500 }),
        unit('cheap', { pairsToSettle: 10 }),
        unit('hopeless', { pairsToSettle: null }),
        unit('last-look', { pairs: 540, look: 3 }),
      ],
      schedule,
      100,
      0.1,
    );
    expect(stage.map((s) => s.name)).toEqual(['cheap', 'costly', 'hopeless']);
    expect(stage[0]).toEqual({ name: 'cheap', pairs: 40, look: 1 });
  });

  it('keeps to the budget: a stage that does not fit is not started', () => {
    // each next look costs 40 pairs × 0.05 s = 2 s
    const units = [unit('a', { pairsToSettle: 5 }), unit('b', { pairsToSettle: 50 })];
    expect(nextStage(units, schedule, 3, 0.1).map((s) => s.name)).toEqual(['a']);
    expect(nextStage(units, schedule, 1, 0.1)).toEqual([]);
  });

  it('charges a group stage once: one process runs its benchmarks together', () => {
    const units = [unit('a', { pairsToSettle: 5 }), unit('b', { pairsToSettle: 50 })];
    // 2 s each alone, 2 s together
    expect(nextStage(units, schedule, 3, 0.1, true).map((s) => s.name)).toEqual(['a', 'b']);
  });

  it('ends when nothing is open', () => {
    expect(nextStage([unit('a', { decision: 'settled' })], schedule, 100, 0.1)).toEqual([]);
  });
});
