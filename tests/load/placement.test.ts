import { describeGenerator, planGenerator } from '../../src/load/placement.js';
import type { IsolationReport } from '../../src/contracts/isolation.js';

const report = (slots: (string | null)[], harnessCpus: string | null): IsolationReport => ({
  requested: 'auto',
  kind: 'cgroup-v1',
  slots,
  harnessCpus,
  cgroup: null,
  warnings: [],
});

describe('where the load generator runs', () => {
  it('a spare CPU first, then the harness CPU, else shared with the servers (and says so)', () => {
    expect(planGenerator(report(['1', '2'], '0'), [0, 1, 2, 3])).toEqual({
      prefix: ['taskset', '-c', '3'],
      ownCpus: true,
    });
    expect(planGenerator(report(['1'], '0'), [0, 1])).toEqual({ prefix: [], ownCpus: true });
    expect(planGenerator(report(['0', '1'], null), [0, 1])).toEqual({ prefix: [], ownCpus: false });
    expect(describeGenerator('3', report(['1', '2'], '0'))).toBe(
      'the load generator ran on CPU 3, of its own',
    );
    expect(describeGenerator('0', report(['1'], '0'))).toBe(
      "the load generator ran on CPU 0, the harness's (no measured server runs there)",
    );
    expect(describeGenerator('0-1', report(['0', '1'], null))).toMatch(
      /^the load generator ran on CPUs 0-1, shared with the measured servers/,
    );
    expect(describeGenerator('0-1', report([null, null], null))).toMatch(/no CPU isolation/);
  });

  it("never on the measured CPUs' idle SMT siblings", () => {
    const withPlan: IsolationReport = {
      ...report(['3', '5'], '0-1'),
      cpuPlan: {
        basis: 'topology',
        layout: '1 package × 4 cores × 2 threads',
        harness: '0-1',
        slots: ['3', '5'],
        idle: '2,4',
        spare: '6-7',
        siblingsInUse: false,
        reasons: [],
      },
    };
    expect(planGenerator(withPlan, [0, 1, 2, 3, 4, 5, 6, 7])).toEqual({
      prefix: ['taskset', '-c', '6-7'],
      ownCpus: true,
    });
  });
});
