import { analyzeSamples, largestHalfWidth } from '../../src/analyze/analyze.js';
import { comparisonInput } from '../../src/analyze/blocks.js';
import { exitStatus } from '../../src/analyze/gate.js';
import { describeReport } from '../../src/report/terminal.js';
import { statusOf } from '../../src/analyze/report.js';
import { runContextFromEnv } from '../../src/history/context.js';
import { buildEntry } from '../../src/history/entry.js';
import { collectSeries } from '../../src/analyze/series.js';
import type { SamplesFile, Trial } from '../../src/contracts/samples.js';
import { parseScenario } from '../../src/scenario/load.js';
import { createRng } from '../../src/stats/rng.js';

/** Synthetic samples: `ratio[v]` scales version v; a shared per-round drift affects all versions. */
function samples(
  mode: SamplesFile['mode'],
  ratios: number[],
  rounds = 30,
  extra: (round: number) => Trial['metrics'] = () => [],
): SamplesFile {
  const rng = createRng(4);
  const names = ratios.map((_, i) => (i === 0 ? 'base' : `v${i}`));
  const trials: Trial[] = [];
  for (let round = 0; round < rounds; round++) {
    const drift = 1 + 0.3 * Math.sin(round / 3); // the machine changes over time
    ratios.forEach((ratio, version) => {
      const value = 100 * ratio * drift * (1 + 0.01 * rng.nextNormal());
      trials.push({
        version,
        round,
        warmup: round === 0,
        slot: 0,
        startMs: round,
        endMs: round + 1,
        wallMs: 1,
        metrics: [
          { name: 'time', unit: 'ms', biggerIsBetter: false, values: [value] },
          ...extra(round),
        ],
      });
    });
  }
  const scenario = parseScenario({
    mode,
    versions: names.map((name) => ({ name, path: name })),
    workload: { command: 'x' },
    analysis: { resamples: 2000 },
  });
  return {
    schemaVersion: 1,
    tool: { name: 'duetkit', version: 'test' },
    complete: true,
    stopReason: 'iterations',
    error: null,
    scenario,
    scenarioFile: null,
    mode,
    seed: 8,
    startedAt: '',
    finishedAt: '',
    machine: {
      hostname: '',
      platform: '',
      arch: '',
      kernel: '',
      cpuModel: '',
      cores: 2,
      memoryBytes: 0,
      loadAverage: [0, 0, 0],
      node: '',
    },
    isolation: {
      requested: 'auto',
      kind: 'none',
      slots: [],
      harnessCpus: null,
      cgroup: null,
      warnings: [],
    },
    versions: names.map((name) => ({
      name,
      source: { path: name },
      commit: null,
      dirty: false,
      dir: name,
    })),
    order: [],
    trials,
  };
}

describe('analyzeSamples', () => {
  it('pairs by round in rmit: a 10% regression is found despite a ±30% drift', () => {
    const report = analyzeSamples(samples('rmit', [1, 1.1]));
    expect(report.paired).toBe(true);
    const c = report.results[0]!.comparison!;
    expect(c.paired).toBe(true);
    expect(c.n.base).toBe(29); // warm-up round excluded
    expect(c.change).toBeCloseTo(0.1, 1);
    expect(c.verdict).toBe('regression');
  });

  it('analyses mit unpaired: the same data drown in the drift', () => {
    const c = analyzeSamples(samples('mit', [1, 1.1])).results[0]!.comparison!;
    expect(c.paired).toBe(false);
    expect(c.verdict).toBe('inconclusive');
  });

  it('compares every version to the baseline and adjusts the whole family', () => {
    const report = analyzeSamples(samples('rmit', [1, 1, 1.2]), { adjustment: 'bh' });
    expect(report.results.map((r) => [r.version, r.baseline])).toEqual([
      ['v1', 'base'],
      ['v2', 'base'],
    ]);
    expect(report.results.every((r) => r.comparison!.test.adjustment === 'bh')).toBe(true);
    expect(report.summary.regression).toBe(1);
    const other = analyzeSamples(samples('rmit', [1, 1, 1.2]), { baseline: 'v2' });
    expect(other.results.map((r) => r.version)).toEqual(['base', 'v1']);
    expect(() => analyzeSamples(samples('rmit', [1, 1]), { baseline: 'nope' })).toThrow(
      /accepted: base, v1/,
    );
  });

  it('reports a benchmark that cannot be compared as an error, not a pass', () => {
    const report = analyzeSamples(samples('single', [1, 1.1], 2));
    expect(report.results[0]!.comparison).toBeNull();
    expect(report.results[0]!.error).toMatch(/at least 2 values.*single mode/);
    expect(report.summary.error).toBe(1);
  });

  it('uses the median of a trial’s several values as its paired value', () => {
    const s = samples('duet', [1, 1], 3, () => [
      { name: 'multi', unit: 'ns', biggerIsBetter: false, values: [1, 5, 3] },
    ]);
    const series = collectSeries(s).find((x) => x.name === 'multi')!;
    expect(comparisonInput(series, 0, 1, true)).toEqual({
      base: [3, 3],
      head: [3, 3],
      paired: true,
      rounds: [1, 2],
    });
    expect(comparisonInput(series, 0, 1, false).base).toEqual([1, 5, 3, 1, 5, 3]);
  });

  it('gives the largest CI half-width for precision-based stopping', () => {
    const width = largestHalfWidth(samples('duet', [1, 1.05]));
    expect(width).toBeGreaterThan(0);
    expect(width).toBeLessThan(0.05);
    expect(largestHalfWidth(samples('duet', [1, 1.05], 2))).toBeNull();
  });
});

/** Adds a metric `name` (seconds, one summary per trial) whose value depends on version and round. */
function withMetric(
  s: SamplesFile,
  name: string,
  value: (version: number, round: number) => number,
  only = false,
): SamplesFile {
  return {
    ...s,
    trials: s.trials.map((t) => ({
      ...t,
      metrics: [
        ...(only ? [] : t.metrics),
        {
          name,
          unit: 's',
          biggerIsBetter: false,
          values: [value(t.version, t.round)],
          valueKind: 'summary' as const,
        },
      ],
    })),
  };
}

// hyperfine's "<name> - system" of a short command: mostly 0, now and then a tick
const ticks = (round: number): number => (round % 5 === 2 ? 1e-4 : 0);

describe('analyzeSamples: metrics whose values form no ratio', () => {
  it('a base of 0 is not comparable: reported with the reason, neither error nor verdict', () => {
    const s = withMetric(samples('duet', [1, 1.2]), 'cmd - system', (v, r) => ticks(r + v));
    const report = analyzeSamples(s);
    const sys = report.results.find((r) => r.benchmark === 'cmd - system')!;
    expect(statusOf(sys)).toBe('not-comparable');
    expect(sys).toMatchObject({ comparison: null, error: null, valueKind: 'summary' });
    expect(sys.notComparable).toMatchObject({
      reason: expect.stringMatching(
        /^\d+ of 29 base values are 0: a relative change \(head\/base − 1\) needs every base value above 0$/,
      ),
      statistic: 'trimmed',
      base: { n: 29, median: 0 },
    });
    expect(report.schemaVersion).toBe(4);
    expect(report.summary).toEqual({
      regression: 1,
      improvement: 0,
      unchanged: 0,
      inconclusive: 0,
      notComparable: 1,
      error: 0,
      unmeasured: 0,
    });
    // the family is the comparable benchmarks: Holm over one test leaves its p alone
    const time = report.results[0]!.comparison!;
    expect(time.test.pValueAdjusted).toBe(time.test.pValue);
    const text = describeReport(report);
    expect(text).toMatch(/cmd - system +0 s ±\d+\.\d% +0 s ±\d+\.\d% +– +– +– +not comparable/);
    expect(text).toContain('cmd - system: not comparable: ');
    expect(text).toContain(
      'summary: 1 regression, 0 improvement, 0 unchanged, 0 inconclusive, 1 not comparable, 0 error',
    );
    expect(exitStatus(report, 'never')).toBe(0);
    expect(exitStatus(report, 'regression')).toBe(1); // the regression of `time`, not the zeros
  });

  it('the comparable metrics alone decide: a clean run with a zero metric exits 0', () => {
    const s = withMetric(samples('rmit', [1, 1]), 'cmd - system', (_, r) => ticks(r));
    const report = analyzeSamples(s);
    expect(report.summary).toMatchObject({ unchanged: 1, notComparable: 1, error: 0 });
    expect(exitStatus(report, 'inconclusive')).toBe(0);
  });

  it('0 on both sides in every round is exactly unchanged (head reproduced base)', () => {
    const report = analyzeSamples(withMetric(samples('duet', [1, 1]), 'cmd - system', () => 0));
    const sys = report.results.find((r) => r.benchmark === 'cmd - system')!;
    expect(sys.comparison).toMatchObject({ change: 0, verdict: 'unchanged' });
    expect(report.summary.notComparable).toBe(0);
  });

  it('a head of 0 against a positive base is comparable: −100%', () => {
    const s = withMetric(samples('duet', [1, 1]), 'cmd - user', (v) => (v === 0 ? 2e-3 : 0));
    const sys = analyzeSamples(s).results.find((r) => r.benchmark === 'cmd - user')!;
    expect(sys.comparison).toMatchObject({ change: -1, verdict: 'improvement' });
  });

  it('nothing comparable: no verdict, exit status 1 whatever --fail-on says', () => {
    const s = withMetric(samples('duet', [1, 1]), 'cmd - system', (v, r) => ticks(r + v), true);
    const report = analyzeSamples(s);
    expect(report.summary).toMatchObject({ notComparable: 1, error: 0 });
    expect(exitStatus(report, 'never')).toBe(1);
    expect(describeReport(report)).toContain(
      'error: no benchmark could be compared, so there is no verdict',
    );
  });

  it('a benchmark with too few values is still an error beside a not comparable one', () => {
    const s = withMetric(samples('single', [1, 1.1], 2), 'cmd - system', (v, r) => ticks(r + v));
    const report = analyzeSamples(s);
    expect(report.results.map(statusOf)).toEqual(['error', 'error']);
    expect(report.summary.error).toBe(2);
  });

  it('precision-based stopping waits for the comparable benchmarks only', () => {
    const s = withMetric(samples('duet', [1, 1.05]), 'cmd - system', (v, r) => ticks(r + v));
    expect(largestHalfWidth(s)).toBe(largestHalfWidth(samples('duet', [1, 1.05])));
    const none = withMetric(samples('duet', [1, 1]), 'cmd - system', (v, r) => ticks(r + v), true);
    expect(largestHalfWidth(none)).toBeNull();
  });
});

describe('analyzeSamples: derived metrics', () => {
  it('reports a derived metric but counts its benchmark once in the Holm family', () => {
    const rng = createRng(9);
    // a +10% change in "time"; "time - MB/s" is the same measurement inverted (derived)
    const s = samples('duet', [1, 1.1], 40, () => [
      { name: 'other', unit: 'ms', biggerIsBetter: false, values: [50 + rng.nextNormal()] },
    ]);
    for (const t of s.trials) {
      const time = t.metrics.find((m) => m.name === 'time')!.values[0]!;
      t.metrics.push({
        name: 'time - MB/s',
        unit: 'MB/s',
        biggerIsBetter: true,
        values: [1e5 / time],
        derivedFrom: 'time',
      });
    }
    const report = analyzeSamples(s);
    const time = report.results.find((r) => r.benchmark === 'time')!.comparison!;
    const rate = report.results.find((r) => r.benchmark === 'time - MB/s')!;
    expect(rate.derivedFrom).toBe('time');
    // the family is {time, other}: Holm multiplies the smaller p by 2, not 3
    expect(time.test.pValueAdjusted).toBeCloseTo(Math.min(1, 2 * time.test.pValue), 12);
    expect(rate.comparison!.test.pValueAdjusted).toBe(time.test.pValueAdjusted);
    expect(rate.comparison!.change).toBeCloseTo(1 / (1 + time.change) - 1, 6);
    expect(rate.comparison!.verdict).toBe('regression');
    // one slower benchmark is one regression in the summary, not two
    expect(time.verdict).toBe('regression');
    expect(report.summary.regression).toBe(1);
  });
});

describe('the machine fingerprint', () => {
  it('goes from the samples into the comparison report and the history entry', () => {
    const fingerprint = {
      cpuModel: 'AMD EPYC 7763 64-Core Processor',
      microcode: null,
      kernel: '6.11.0-1018-azure',
      arch: 'x64',
      vcpus: 4,
      layout: '1 package × 2 cores × 2 threads',
      cgroup: 'v2' as const,
      isolation: 'cgroup-v2' as const,
      hypervisor: { present: true, type: null, vendor: null, product: null },
      image: { os: 'ubuntu24', version: null, runnerOs: 'Linux', runnerArch: 'X64' },
      id: '0123456789ab',
    };
    const withIt = samples('duet', [1, 1.1]);
    withIt.machine = { ...withIt.machine, fingerprint };
    withIt.startedAt = withIt.finishedAt = '2026-11-26T12:00:00Z';
    const report = analyzeSamples(withIt);
    expect(report.fingerprint).toEqual(fingerprint);
    expect(analyzeSamples(samples('duet', [1, 1.1]))).not.toHaveProperty('fingerprint');
    const entry = buildEntry({
      samples: withIt,
      report,
      suite: 'micro',
      runId: '1-1',
      context: runContextFromEnv({}),
      commit: null,
      recordedAt: '2026-11-26T12:01:00Z',
    });
    expect(entry.infrastructure.machine).toMatchObject({ fingerprint });
  });
});
