import { budgetTable, formatMinutes, recommendedBudget } from '../../src/suite/budget.js';

describe('suite: the recommended budget', () => {
  it('is the overhead plus 20 pairs a benchmark at the measured pace, in whole minutes, at least 2', () => {
    // go: 15 s + 20 × 0.12 s × 200 = 495 s → 9 minutes
    expect(recommendedBudget({ format: 'go', benchmarks: 200 })).toEqual({
      seconds: 540,
      perBenchmarkSeconds: 2.4,
      overheadSeconds: 15,
      explanation: expect.stringContaining('9m gives each of 200 go benchmarks its screening'),
    });
    // 15 s + 2.4 s × 20 = 63 s: the 2-minute floor
    expect(recommendedBudget({ format: 'go', benchmarks: 20 }).seconds).toBe(120);
    expect(recommendedBudget({ format: 'go', benchmarks: 0 }).seconds).toBe(120);
    // exactly 4 minutes stays 4 minutes: 60 s + 3 s × 60 = 240 s (grouped criterion)
    expect(recommendedBudget({ format: 'criterion', benchmarks: 60, grouped: true }).seconds).toBe(
      240,
    );
    expect(recommendedBudget({ format: 'criterion', benchmarks: 61, grouped: true }).seconds).toBe(
      300,
    );
    // 10 s + 3 s × 100 = 310 s → 6 minutes
    expect(recommendedBudget({ format: 'pytest', benchmarks: 100 }).seconds).toBe(360);
  });

  it('has a cost per format, grouped or not, and one for the formats it has no figures for', () => {
    const costs = (format: string, grouped = false): [number, number] => {
      const b = recommendedBudget({ format, benchmarks: 1, grouped });
      return [b.perBenchmarkSeconds, b.overheadSeconds];
    };
    expect(costs('go')).toEqual([2.4, 15]);
    expect(costs('criterion')).toEqual([5.6, 60]);
    // several benchmarks to a process: about half the cost (itertools, 131 benchmarks)
    expect(costs('criterion', true)).toEqual([3, 60]);
    expect(costs('cargo')).toEqual([5.6, 60]);
    // a format without a grouped figure costs the same grouped
    expect(costs('cargo', true)).toEqual([5.6, 60]);
    expect(costs('pytest')).toEqual([3, 10]);
    expect(costs('googlecpp')).toEqual([1, 10]);
    expect(costs('jmh')).toEqual([8, 20]);
    expect(costs('tinybench')).toEqual([3, 10]);
  });

  it('costs the same on 4 vCPUs and says why; refuses what is not a count', () => {
    const two = recommendedBudget({ format: 'jmh', benchmarks: 50, vcpus: 2 });
    const four = recommendedBudget({ format: 'jmh', benchmarks: 50, vcpus: 4 });
    expect(four.seconds).toBe(two.seconds);
    expect(two.explanation).toContain('on a 2-vCPU runner');
    expect(four.explanation).toContain('one CPU per side and one for the harness');
    expect(recommendedBudget({ format: 'go', benchmarks: 1 }).explanation).toContain(
      'each of 1 go benchmark its',
    );
    expect(() => recommendedBudget({ format: 'go', benchmarks: -1 })).toThrow(
      'benchmarks: got -1; expected a whole number ≥ 0',
    );
    expect(() => recommendedBudget({ format: 'go', benchmarks: 2.5 })).toThrow('benchmarks');
    expect(() => recommendedBudget({ format: 'go', benchmarks: 5, vcpus: 0 })).toThrow(
      'vcpus: got 0; expected a whole number ≥ 1',
    );
  });

  it('tabulates 20 to 400 benchmarks for the docs, grouped from where init groups', () => {
    expect(budgetTable('go')).toEqual([
      { benchmarks: 20, vcpus2: 120, vcpus4: 120 },
      { benchmarks: 50, vcpus2: 180, vcpus4: 180 },
      { benchmarks: 100, vcpus2: 300, vcpus4: 300 },
      { benchmarks: 200, vcpus2: 540, vcpus4: 540 },
      { benchmarks: 400, vcpus2: 1020, vcpus4: 1020 },
    ]);
    expect(budgetTable('jmh').map((r) => r.vcpus2)).toEqual([180, 420, 840, 1620, 3240]);
    // criterion: one process a benchmark below 50 (5.6 s each), grouped from 50 (3 s each)
    expect(budgetTable('criterion', 50).map((r) => r.vcpus2)).toEqual([180, 240, 360, 660, 1260]);
    expect(budgetTable('criterion').map((r) => r.vcpus2)[2]).toBe(660);
    expect(formatMinutes(240)).toBe('4m');
  });
});
