import { plantedHistory } from '../../benchmarks/variability/history.js';
import { analyzeVariability } from '../../src/variability/analyze.js';
import { renderVariability } from '../../src/variability/render.js';
import {
  findChangePoints,
  stepIsCalled,
  type ChangePointSettings,
} from '../../src/variability/change-points.js';
import type { BenchmarkSeries } from '../../src/variability/series.js';

const SETTINGS: ChangePointSettings = {
  alpha: 0.01,
  permutations: 499,
  seed: 1,
  level: 0.95,
  resamples: 2000,
};

function seriesOf(values: number[]): BenchmarkSeries {
  return {
    suite: 's',
    benchmark: 'parse',
    unit: 'ns',
    statistic: 'median',
    biggerIsBetter: false,
    notes: [],
    points: values.map((value, i) => ({
      runId: `r${i}`,
      at: Date.UTC(2026, 0, 1 + i),
      commit: null,
      runUrl: null,
      value,
      n: 10,
      cv: null,
      ci: null,
      infra: { image: null, cpuModel: null, cluster: null, instance: null },
      aa: null,
      paired: null,
    })),
  };
}

// ±0.5% deterministic jitter
const jitter = (i: number) => ((i * 7919) % 11) / 10 - 0.5;
const level = (n: number, at: number, shift = 0) =>
  Array.from({ length: n }, (_, i) => at + jitter(i + shift));

describe('findChangePoints: a split is called only when its step interval excludes no change', () => {
  // 20 runs at 100, 20 at 130 (a real +30% step), then 7 runs of which 5 sit near 92 and 2
  // are wild (140, 150): E-Divisive splits there (p < α), the median moved −28%, but the
  // median's interval reaches above 0 — the "−28.12% [−32.48%, +43.75%]" of issue 24.
  const values = [...level(20, 100), ...level(20, 130, 3), 92, 93, 91, 140, 93, 92, 150];

  it('calls the +30% step and leaves the split whose interval contains 0 uncalled', () => {
    const found = findChangePoints(seriesOf(values), SETTINGS);
    expect(found.changePoints).toHaveLength(1);
    const called = found.changePoints[0]!;
    expect(called.index).toBe(20);
    expect(called.direction).toBe('regression');
    expect(called.step.lower!).toBeGreaterThan(0.25);
    expect(found.uncalled).toHaveLength(1);
    const doubtful = found.uncalled[0]!;
    expect(doubtful.index).toBe(40);
    expect(doubtful.pValue).toBeLessThan(SETTINGS.alpha);
    expect(doubtful.step.change).toBeLessThan(-0.2);
    expect(doubtful.step.lower!).toBeLessThan(0);
    expect(doubtful.step.upper!).toBeGreaterThan(0);
    // the split still bounds the segments (levels are not mixed in the other analyses)
    expect(found.segments).toEqual([
      [0, 20],
      [20, 40],
      [40, 47],
    ]);
  });

  it('a threshold is a verdict’s: the whole interval must lie beyond it', () => {
    const found = findChangePoints(seriesOf(values), { ...SETTINGS, threshold: 0.35 });
    expect(found.changePoints).toHaveLength(0);
    expect(found.uncalled.map((c) => c.index)).toEqual([20, 40]);
    const step = { change: 0.3, level: 0.95, runsBefore: 5, runsAfter: 5 };
    expect(stepIsCalled({ ...step, lower: 0.06, upper: 0.5 }, 0.05)).toBe(true);
    expect(stepIsCalled({ ...step, lower: 0.04, upper: 0.5 }, 0.05)).toBe(false);
    expect(stepIsCalled({ ...step, change: -0.3, lower: -0.5, upper: -0.06 }, 0.05)).toBe(true);
    expect(stepIsCalled({ ...step, lower: -0.01, upper: 0.5 }, 0)).toBe(false);
    expect(stepIsCalled({ ...step, lower: null, upper: null }, 0)).toBe(true);
    expect(stepIsCalled({ ...step, change: 0.03, lower: null, upper: null }, 0.05)).toBe(false);
  });

  it('the report lists the called step and says why the other split is not called', () => {
    const entries = plantedHistory({ runs: values.length, seed: 1 }).map((e, i) => ({
      ...e,
      benchmarks: e.benchmarks.map((b) => ({ ...b, value: values[i]! })),
    }));
    const report = analyzeVariability(entries, { now: new Date('2026-12-01T00:00:00Z') });
    const b = report.suites[0]!.benchmarks[0]!;
    expect(b.changePoints.map((c) => c.index)).toEqual([20]);
    expect(b.notes).toEqual([
      expect.stringMatching(
        /^E-Divisive split the series at run run-0040 \(p = [\d.]+\), not called a change point: the step -2\d\.\d\d% \[-\d+\.\d\d%, \+\d+\.\d\d%\] contains no change$/,
      ),
    ]);
    const markdown = renderVariability(report);
    const from = markdown.indexOf('### Change points on main');
    const section = markdown.slice(from, markdown.indexOf('\n###', from + 1));
    expect(section.split('\n').filter((l) => l.startsWith('- **bench**'))).toHaveLength(1);
    expect(markdown).toMatch(/- \*\*bench\*\*: E-Divisive split the series at run run-0040/);
    expect(section).toMatch(/- \*\*bench\*\* 🔴 regression \+29\.\d\d% \[/);
    expect(markdown).toMatch(/called only when the whole interval lies beyond no change/);
  });
});
