import { commandTimeRatios } from '../../src/analyze/command-ratio.js';
import { createRng } from '../../src/stats/rng.js';
import { pairedRun, timing } from './fixtures.js';

describe('commandTimeRatios', () => {
  /** A run of two benchmarks whose trials took `ratio` times the CPU time on the head. */
  function run(ratio: number, withCpu = true) {
    const samples = pairedRun([
      { pairs: 40, metrics: [timing('checksum', 1.06, 1), timing('sort', 1, 2)] },
    ]);
    const rng = createRng(5);
    for (const t of samples.trials) {
      const cpu = 220 * (t.version === 1 ? ratio : 1) * (1 + 0.01 * rng.nextNormal());
      if (withCpu) t.cpuMs = cpu;
      else delete t.cpuMs;
    }
    return samples;
  }

  it('compares the whole command’s CPU time per head version, with its interval', () => {
    const ratios = commandTimeRatios(run(1.03));
    expect(Object.keys(ratios)).toEqual(['head']);
    const r = ratios.head!;
    expect(r.estimate).toBeGreaterThan(1.02);
    expect(r.estimate).toBeLessThan(1.04);
    expect(r.lower).toBeLessThanOrEqual(r.estimate);
    expect(r.upper).toBeGreaterThanOrEqual(r.estimate);
    expect(r.upper - r.lower).toBeLessThan(0.02);
    expect(r.level).toBe(0.99);
    // not the 6% of one of its benchmarks
    expect(r.upper).toBeLessThan(1.06);
  });

  it('gives nothing when the trials have no CPU time', () => {
    expect(commandTimeRatios(run(1.03, false))).toEqual({});
  });
});
