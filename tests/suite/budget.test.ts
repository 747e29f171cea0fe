import { budgetTable, formatMinutes, recommendedBudget } from '../../src/suite/budget.js';

describe('suite: the recommended budget', () => {
  it('is the overhead plus the cost per benchmark, in whole minutes, at least 2', () => {
    // go: 15 s + 0.9 s × 200 = 195 s → 4 minutes
    expect(recommendedBudget({ format: 'go', benchmarks: 200 })).toEqual({
      seconds: 240,
      perBenchmarkSeconds: 0.9,
      overheadSeconds: 15,
      explanation: expect.stringContaining('4m gives each of 200 go benchmarks its screening'),
    });
    // 15 s + 0.9 s × 20 = 33 s: the 2-minute floor
    expect(recommendedBudget({ format: 'go', benchmarks: 20 }).seconds).toBe(120);
    expect(recommendedBudget({ format: 'go', benchmarks: 0 }).seconds).toBe(120);
    // exactly 3 minutes stays 3 minutes: 60 s + 2.5 s × 48 = 180 s
    expect(recommendedBudget({ format: 'criterion', benchmarks: 48 }).seconds).toBe(180);
    expect(recommendedBudget({ format: 'criterion', benchmarks: 49 }).seconds).toBe(240);
    // 10 s + 1.2 s × 100 = 130 s → 3 minutes
    expect(recommendedBudget({ format: 'pytest', benchmarks: 100 }).seconds).toBe(180);
  });

  it('has a cost per format, and one for the formats it has no figures for', () => {
    const costs = (format: string): [number, number] => {
      const b = recommendedBudget({ format, benchmarks: 1 });
      return [b.perBenchmarkSeconds, b.overheadSeconds];
    };
    expect(costs('go')).toEqual([0.9, 15]);
    expect(costs('criterion')).toEqual([2.5, 60]);
    expect(costs('cargo')).toEqual([2.5, 60]);
    expect(costs('pytest')).toEqual([1.2, 10]);
    expect(costs('googlecpp')).toEqual([0.8, 10]);
    expect(costs('jmh')).toEqual([8, 20]);
    expect(costs('tinybench')).toEqual([1.5, 10]);
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

  it('tabulates 20 to 400 benchmarks for the docs', () => {
    expect(budgetTable('go')).toEqual([
      { benchmarks: 20, vcpus2: 120, vcpus4: 120 },
      { benchmarks: 50, vcpus2: 120, vcpus4: 120 },
      { benchmarks: 100, vcpus2: 120, vcpus4: 120 },
      { benchmarks: 200, vcpus2: 240, vcpus4: 240 },
      { benchmarks: 400, vcpus2: 420, vcpus4: 420 },
    ]);
    expect(budgetTable('jmh').map((r) => r.vcpus2)).toEqual([180, 420, 840, 1620, 3240]);
    expect(formatMinutes(240)).toBe('4m');
  });
});
