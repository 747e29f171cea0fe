import { efficiencyOf } from '../../src/analyze/efficiency.js';
import type { SamplesFile } from '../../src/contracts/samples.js';

const trial = (
  version: number,
  round: number,
  startMs: number,
  wallMs: number,
  measuredNs: number,
) => ({
  version,
  round,
  warmup: false,
  slot: version,
  startMs,
  endMs: startMs + wallMs,
  wallMs,
  metrics: [{ name: 'BenchmarkX', unit: 'ns/op', biggerIsBetter: false, values: [1], measuredNs }],
});

describe('efficiency accounting', () => {
  it('splits machine time into preparing, between trials, in the process and measured', () => {
    const samples = {
      mode: 'duet',
      scenario: { workload: { format: 'go' } },
      versions: [{ name: 'base' }, { name: 'head' }],
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: '2026-01-01T00:00:01.000Z', // 1 s in all
      // two rounds 0–100 ms and 400–500 ms: 40 ms measured of each 100 ms trial
      trials: [0, 1].flatMap((round) => [0, 1].map((v) => trial(v, round, 400 * round, 100, 40e6))),
    } as unknown as SamplesFile;
    const e = efficiencyOf(samples);
    expect(e.slots).toBe(2);
    expect(e.measuredSeconds).toBeCloseTo(0.16, 12);
    expect(e.efficiency).toBeCloseTo(0.08, 12); // 0.16 s of 2 × 1 s
    expect(e.breakdown!.preparation).toBeCloseTo(0.5, 12); // 0.5 s before and after the trials
    expect(e.breakdown!.harness).toBeCloseTo(0.3, 12); // 2 × 0.5 − 0.4 s of trials, over 2 s
    expect(e.breakdown!.process).toBeCloseTo(0.12, 12);
    expect(e.pairsPerSecond).toBeCloseTo(2, 12);
    const parts = Object.values(e.breakdown!).reduce((a, b) => a + b, 0);
    expect(parts).toBeCloseTo(1, 12);
  });
});
