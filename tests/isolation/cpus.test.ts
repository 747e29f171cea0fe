import { allowedCpus, formatCpuList, parseCpuList, planCpus } from '../../src/isolation/cpus.js';

describe('CPU lists', () => {
  it('parses and formats the kernel form', () => {
    expect(parseCpuList('0-3,8,10-11\n')).toEqual([0, 1, 2, 3, 8, 10, 11]);
    expect(formatCpuList([11, 0, 1, 2, 3, 8, 10])).toBe('0-3,8,10-11');
    expect(() => parseCpuList('a-b')).toThrow(/not a CPU list/);
  });

  it('reads this process’s affinity', () => {
    expect(allowedCpus().length).toBeGreaterThan(0);
  });
});

describe('planCpus', () => {
  it('keeps a CPU for the harness when one is spare', () => {
    expect(planCpus([0, 1, 2, 3, 4], 2)).toMatchObject({
      slots: [
        [1, 2],
        [3, 4],
      ],
      harness: [0],
      warnings: [],
    });
    expect(planCpus([0, 1], 1)).toMatchObject({ slots: [[1]], harness: [0], warnings: [] });
  });

  it('shares the CPUs with the harness, saying so, when there is none to spare', () => {
    const plan = planCpus([0, 1], 2)!;
    expect(plan.slots).toEqual([[0], [1]]);
    expect(plan.harness).toBeNull();
    expect(plan.warnings[0]).toMatch(/harness shares them/);
  });

  it('makes disjoint, equal sets', () => {
    const plan = planCpus([0, 1, 2, 3, 4, 5, 6, 7], 3)!;
    const all = plan.slots.flat();
    expect(new Set(all).size).toBe(all.length);
    expect(plan.slots.map((s) => s.length)).toEqual([2, 2, 2]);
  });

  it('gives up with fewer CPUs than slots', () => {
    expect(planCpus([0], 2)).toBeNull();
  });
});
