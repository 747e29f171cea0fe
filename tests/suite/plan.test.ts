import {
  CONFIRM_SHARE,
  planSuite,
  replanFromPace,
  screenThenConfirm,
  type PlanInput,
} from '../../src/suite/plan.js';
import { suiteSchema } from '../../src/suite/schema.js';
import { decisionFloor } from '../../src/stats/sequential.js';

const units = (n: number, nsPerOp = 1000) =>
  Array.from({ length: n }, (_, i) => ({
    name: `B${i}`,
    nsPerOp,
    iterations: Math.round(0.02e9 / nsPerOp),
  }));

const input = (over: Partial<PlanInput> = {}): PlanInput => ({
  spec: suiteSchema.parse({ repetitions: 'auto' }),
  units: units(100),
  repeats: true,
  startupSeconds: 0.04,
  budgetSeconds: 120,
  level: 0.99,
  ...over,
});

/** A screening and two confirming looks, the confirming error split 15% / 5%. */
const thrice = (pairs: number[]) => ({ pairs, weights: [0.8, 0.2 * 0.75, 0.05] });

describe('the decision floor of a family', () => {
  it('is the fewest pairs whose smallest exact Wilcoxon p survives p/w·m < α', () => {
    for (const [m, w, alpha] of [
      [1, 1, 0.01],
      [20, 0.1, 0.01],
      [100, 0.1, 0.01],
      [400, 0.1, 0.05],
    ] as const) {
      const n = decisionFloor(m, w, alpha);
      expect(((2 / 2 ** n) * m) / w).toBeLessThan(alpha);
      expect(((2 / 2 ** (n - 1)) * m) / w).toBeGreaterThanOrEqual(alpha);
    }
    expect(decisionFloor(100, 0.1, 0.01)).toBe(18);
    expect(() => decisionFloor(0, 0.1, 0.01)).toThrow('familySize ≥ 1');
  });
});

describe('planning a suite before it measures', () => {
  it('sizes the repetitions from the start-up, at most half the first look', () => {
    // 40 ms start-up + 4 ms harness against 20 ms of work: r ≥ 0.044·0.85/(0.02·0.15) = 12.5
    const plan = planSuite(input({ budgetSeconds: 3600 }));
    expect(plan.repetitions).toBe(5); // capped: four process starts per first look
    // a round of repetitions is one pair for the test: the first look is the floor's 18 rounds
    expect(plan.schedule.pairs).toEqual([90, 270, 810, 2430]);
    expect(planSuite(input({ startupSeconds: 0.005 })).repetitions).toBe(3);
    expect(planSuite(input({ repeats: false })).repetitions).toBe(1);
    // the default: one repetition per process, every pair independent
    expect(planSuite(input({ spec: suiteSchema.parse({}) })).repetitions).toBe(1);
    expect(planSuite(input({ spec: suiteSchema.parse({ repetitions: 4 }) })).repetitions).toBe(4);
  });

  it('raises the first look to the floor of the family, in whole rounds', () => {
    const spec = suiteSchema.parse({ firstLook: 8, repetitions: 'auto' });
    const plan = planSuite(input({ spec, startupSeconds: 0.005 }));
    expect(plan.decisionFloor).toBe(18);
    expect(plan.schedule.pairs[0]! % plan.repetitions).toBe(0);
    expect(plan.schedule.pairs[0]).toBeGreaterThanOrEqual(18);
    const small = planSuite(input({ spec, units: units(3), repeats: false }));
    expect(small.schedule.pairs[0]).toBe(Math.max(8, small.decisionFloor));
  });

  it('predicts the screening and says at once when the budget cannot afford it, and what would', () => {
    const fits = planSuite(input({ units: units(20) }));
    expect(fits.warning).toBeNull();
    // 100 × 18 rounds × (0.044 + 5 × 20 ms)
    const tight = planSuite(input({ budgetSeconds: 30 }));
    expect(tight.screeningSeconds).toBeCloseTo(100 * 18 * (0.044 + 5 * 0.02 * (1 + 1 / 20000)), 1);
    expect(tight.warning).toMatch(
      /^the budget left to measure \(30 s\) cannot give all 100 benchmarks their first look \(90 pairs each: about 259 s, 2.59 s per benchmark/,
    );
    expect(tight.warning).toMatch(/about 10 pairs each/);
    expect(tight.warning).toMatch(/A budget of 7 min would screen every one/);
    // too tight for the 2 pairs an interval needs: how many get them, how many cannot
    const tighter = planSuite(input({ budgetSeconds: 5 }));
    expect(tighter.warning).toMatch(
      /cannot even give every benchmark the 2 pairs an interval needs: breadth first, about 86 will get them and the other 14 will not be measured within the budget/,
    );
  });

  it('keeps the looks the budget reaches, and one more: the error is not spent on looks never made', () => {
    // 100 benchmarks of one repetition: a round is 0.044 + 20 ms, the screening 20 rounds each
    const spec = suiteSchema.parse({});
    const plan = (budgetSeconds: number) => planSuite(input({ spec, budgetSeconds }));
    const screening = plan(120).screeningSeconds!;
    expect(screening).toBeCloseTo(100 * 20 * (0.044 + 0.02 * (1 + 1 / 20000)), 1);
    // 2 minutes afford about 19 pairs each, short of the first look: a screening look at 85% of
    // that (15 pairs) spending 80% of the error, and a confirming look at 3× for the rest
    expect(plan(120).schedule).toEqual(thrice([15, 45, 135]));
    expect(plan(120).warning).toMatch(
      /Every benchmark is screened at 15 pairs, breadth first, and 15% of the budget is kept to take the changes the screening sees to 45 then 135 pairs, the largest first/,
    );
    // a minute: screened at 7, short of the call floor, confirmed at 8 then at 21
    expect(plan(60).schedule.pairs).toEqual([7, 8, 21]);
    expect(plan(60).warning).toMatch(
      /Every benchmark is screened at 7 pairs, breadth first, and 15% of the budget is kept to take the changes the screening sees to 8 then 21 pairs, the largest first/,
    );
    // about 28 pairs each: the first look, and the next one for the doubtful
    expect(plan(180).schedule).toEqual({ pairs: [20, 60], weights: [1 / 3, 2 / 3] });
    expect(plan(screening * 3).schedule.pairs).toEqual([20, 60, 180]);
    expect(plan(3600).schedule.pairs).toEqual([20, 60, 180, 540]);
    // RMIT runs the two sides one after the other: the same suite costs twice per round
    const rmit = planSuite(input({ spec, budgetSeconds: 180, sidesInSeries: 2 }));
    expect(rmit.screeningSeconds).toBeCloseTo(100 * 20 * (2 * (0.04 + 0.02) + 0.004), 0);
    // 20 × 180 / 248 = 14.5 pairs each: screened at 12, confirmed at 36
    expect(rmit.schedule).toEqual(thrice([12, 36, 108]));
    // nothing calibrated: nothing to size from, every look kept
    const unknown = planSuite(
      input({
        spec,
        units: [{ name: 'x', nsPerOp: null, iterations: null }],
        startupSeconds: null,
      }),
    );
    expect(unknown.schedule.pairs).toEqual([20, 60, 180, 540]);
  });

  it('keeps a share of a short budget to confirm what the screening sees, in whole rounds', () => {
    // the case: ~10 pairs each where the first look wanted 20
    expect(screenThenConfirm(20, 3, 10.4, 1)).toEqual(thrice([8, 24, 72]));
    // rounds of 4 repetitions: 17 pairs afford 14.45 → 3 rounds (12 pairs), then 9 rounds
    expect(screenThenConfirm(60, 3, 17, 4)).toEqual(thrice([12, 36, 108]));
    // a growth that would not add a round still adds one, to each look
    expect(screenThenConfirm(20, 1.1, 10, 1)!.pairs).toEqual([8, 9, 10]);
    // a screening short of the call floor (8 pairs) confirms at the floor first, then at 3
    // times, the confirming error split: itertools at 2 minutes, ~6 pairs afforded, 5 screened
    expect(screenThenConfirm(20, 3, 6, 1)).toEqual({
      pairs: [5, 8, 15],
      weights: [0.8, 0.1, 0.1],
    });
    // in whole rounds (3 repetitions: 6 pairs screened, the floor in 3 rounds, 9 pairs)
    expect(screenThenConfirm(60, 3, 8, 3)!.pairs).toEqual([6, 9, 18]);
    // a growth that reaches no further than the floor: the confirming look, and once more
    expect(screenThenConfirm(20, 1.1, 6, 1)!.pairs).toEqual([5, 6, 7]);
    expect(screenThenConfirm(20, 1.6, 6, 1)).toEqual(thrice([5, 8, 13]));
    // a budget that just reaches the first look leaves nothing to confirm with: screened at 85%
    // (fastjson's 2-minute duet afforded 20.2 pairs each, and its first look took it all)
    expect(screenThenConfirm(20, 3, 20.2, 1)).toEqual(thrice([17, 51, 153]));
    expect(screenThenConfirm(20, 3, 23.5, 1)!.pairs).toEqual([19, 57, 171]);
    // one that reaches the first look with 15% beside it keeps the usual looks; nothing known,
    // nothing planned
    expect(screenThenConfirm(20, 3, 20 / (1 - CONFIRM_SHARE) + 0.01, 1)).toBeNull();
    expect(screenThenConfirm(60, 3, 72, 4)).toBeNull();
    // in whole rounds: 70 × 0.85 = 59.5 pairs, 14 rounds of 4
    expect(screenThenConfirm(60, 3, 70, 4)).toEqual(thrice([56, 168, 504]));
    expect(screenThenConfirm(20, 3, null, 1)).toBeNull();
    // too short for two rounds of screening: all of it goes to the screening
    expect(screenThenConfirm(20, 3, 2.2, 1)).toBeNull();
    expect(screenThenConfirm(90, 3, 10.4, 5)).toBeNull();
    // the weights sum to 1: the union bound over the looks spends exactly α
    const { weights } = screenThenConfirm(20, 3, 10, 1)!;
    expect(weights.reduce((a, w) => a + w, 0)).toBeCloseTo(1, 12);
    expect(CONFIRM_SHARE).toBe(0.15);
  });

  it('sets the looks again from the pace of the first units, before any look, when it differs', () => {
    const spec = suiteSchema.parse({});
    const planned = planSuite(input({ spec, budgetSeconds: 60 }));
    // predicted 0.064 s a pair: 60 s afford 9.4 pairs each, screened at 7, confirmed at the
    // call floor (8) and at 21
    expect(planned.schedule).toEqual({ pairs: [7, 8, 21], weights: [0.8, 0.1, 0.1] });
    expect(planned.plannedFirstLook).toBe(20);
    // the first 10 units (predicted 0.064 s a pair) took 4 pairs each at 0.1 s a pair: the whole
    // screening costs 0.1/0.064 as much as predicted; (4 s + 45 s) / 0.1 s / 100 = 4.9 each
    const took = (secondsPerPair: number, names = 10) =>
      Array.from({ length: names }, (_, i) => ({
        name: `B${i}`,
        pairs: 4,
        seconds: 4 * secondsPerPair,
      }));
    const slower = replanFromPace(planned, spec, 100, took(0.1), 45)!;
    expect(slower.schedule).toEqual({ pairs: [4, 8, 12], weights: [0.8, 0.1, 0.1] });
    // the pace, and what the plan predicted for the same units, for the record
    expect(slower.secondsPerPair).toBeCloseTo(0.1, 12);
    expect(slower.predictedSecondsPerPair).toBeCloseTo(0.064, 4);
    // faster than predicted, enough for the first look: the usual looks, the next for the doubtful
    expect(replanFromPace(planned, spec, 100, took(0.015), 45)!.schedule.pairs).toEqual([20, 60]);
    // enough for the first look but not for a share beside it (22.9 pairs each): screened at 19
    expect(replanFromPace(planned, spec, 100, took(0.02), 45)!.schedule).toEqual(
      thrice([19, 57, 171]),
    );
    // the pace the plan predicted: nothing changes
    expect(replanFromPace(planned, spec, 100, took(0.064), 57.4)).toBeNull();
    // nothing measured: nothing to go by
    expect(replanFromPace(planned, spec, 100, [], 45)).toBeNull();
    // the first units were the cheap ones: the factor is against what the plan predicted for
    // them, not their pace alone (half the others' cost, and as fast as predicted: no change)
    const uneven = planSuite(
      input({
        spec,
        budgetSeconds: 60,
        units: [
          ...units(10).map((u) => ({ ...u, iterations: 1 })), // 0.044 s a round, not 0.064
          ...units(90).map((u, i) => ({ ...u, name: `C${i}` })),
        ],
      }),
    );
    const cheap = Array.from({ length: 10 }, (_, i) => ({
      name: `B${i}`,
      pairs: 4,
      seconds: 4 * uneven.roundSeconds[`B${i}`]!,
    }));
    const spent = cheap.reduce((a, c) => a + c.seconds, 0);
    expect(uneven.roundSeconds.B0).toBeCloseTo(0.044, 3);
    expect(replanFromPace(uneven, spec, 100, cheap, 60 - spent)).toBeNull();
    // their pace alone (0.044 s a pair for all 100) would have promised 13 pairs each
    const naive = { ...uneven, screeningSeconds: null };
    expect(replanFromPace(naive, spec, 100, cheap, 60 - spent)!.schedule.pairs).toEqual([
      11, 33, 99,
    ]);
    // without a calibrated prediction: the measured mean pace
    const blind = { ...planned, screeningSeconds: null, roundSeconds: {} };
    const blindly = replanFromPace(blind, spec, 100, took(0.1), 45)!;
    expect(blindly.schedule.pairs).toEqual([4, 8, 12]);
    expect(blindly.predictedSecondsPerPair).toBeNull();
  });

  it('cannot predict what was not calibrated, and then says nothing', () => {
    const plan = planSuite(
      input({ units: [{ name: 'x', nsPerOp: null, iterations: null }], startupSeconds: null }),
    );
    expect(plan.screeningSeconds).toBeNull();
    expect(plan.warning).toBeNull();
    expect(plan.repetitions).toBe(1);
  });

  it('a format that cannot repeat less than 10 times (criterion) gets looks of the floor in such processes', () => {
    const plan = planSuite(
      input({
        units: units(131).map((u) => ({ ...u, nsPerOp: null })),
        startupSeconds: null,
        minRepetitions: 10,
      }),
    );
    expect(plan.repetitions).toBe(10);
    expect(plan.decisionFloor).toBe(18);
    expect(plan.schedule.pairs).toEqual([180, 540, 1620, 4860]);
  });
});
