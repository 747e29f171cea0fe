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
  it('takes every benchmark to the first look first', () => {
    const stage = nextStage(
      [
        unit('a', { pairs: 0, look: -1, decision: null }),
        unit('b', { pairs: 0, look: -1, decision: null }),
      ],
      schedule,
      1,
      0.1,
    );
    expect(stage).toEqual([
      { name: 'a', pairs: 20, look: 0 },
      { name: 'b', pairs: 20, look: 0 },
    ]);
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
