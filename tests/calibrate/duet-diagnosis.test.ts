import { renderDiagnosis, runDiagnosis } from '../../benchmarks/duet-diagnosis/diagnose.js';
import { cpusetV1Available } from '../isolation/helpers.js';

// The diagnosis script end to end, tiny: noise, a real duet A/A recording, the analysis of its
// pairs and the printed lines. The figures are not asserted (the machine is noisy); their
// shape and ranges are.
describe('duet diagnosis (smoke)', () => {
  it('takes a short duet A/A under noise apart', async () => {
    const result = await runDiagnosis({
      seconds: 3, // 40 pairs (two windows) with room for a busy machine: 1.5 s gave 35 once in CI
      windowPairs: 20,
      noiseThreads: 1,
      noiseLoad: 0.3,
      cpuWeight: true,
      isolation: 'auto',
      units: 200,
      signal: new AbortController().signal,
    });
    expect(result.condition).toBe('noise 1×0.3');
    if (cpusetV1Available()) expect(result.isolation).toBe('cgroup-v1 (cpu.shares=262144)');
    expect(result.pairs).toBeGreaterThanOrEqual(40);
    expect(result.windows).toBe(Math.floor(result.pairs / 20));
    for (const side of [result.medianMs.base, result.medianMs.head])
      expect(side).toBeGreaterThan(0);
    expect(result.sdLogRatio).toBeGreaterThan(0);
    expect(Math.abs(result.correlationOfSides)).toBeLessThanOrEqual(1);
    for (const share of Object.values(result.slowShare)) {
      expect(share).toBeGreaterThanOrEqual(0);
      expect(share).toBeLessThanOrEqual(1);
    }
    expect(result.slowShare.both).toBeLessThanOrEqual(
      Math.min(result.slowShare.base, result.slowShare.head),
    );
    expect(result.medianLogRatioBySlot).toHaveLength(2);
    expect(result.medianCiWidth.median).toBeGreaterThan(0);
    expect(result.medianCiWidth.gmean).toBeGreaterThan(0);
    expect(result.calledChanged.median).toBeLessThanOrEqual(result.windows);
    const text = renderDiagnosis(result, 1.5, 20);
    expect(text).toMatch(/^condition noise 1×0\.3, isolation .*, \d+ pairs in 1\.5 s$/m);
    expect(text).toMatch(/windows of 20 pairs: median 99% CI width/);
  });
});
