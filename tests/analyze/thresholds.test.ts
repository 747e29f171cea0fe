import { analyzeSamples } from '../../src/analyze/analyze.js';
import { metricKind, thresholdFor } from '../../src/analyze/thresholds.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { describeReport } from '../../src/report/terminal.js';
import { collectThreshold } from '../../src/cli/options.js';
import { pairedRun, timing, type MetricSpec } from './fixtures.js';
import { SAMPLE_META } from '../report/fixtures.js';

/** A peak RSS around 100 MiB with 0.2% noise, `ratio` times larger on the head. */
function rss(name: string, ratio: number): MetricSpec {
  const t = timing(name, ratio, 7);
  return { name, unit: 'KiB', value: (v, r) => 1024 * t.value(v, r) };
}

// A run where the time and the peak memory grew 3%: the default ±5% calls neither; a time
// threshold of 1.5% calls the time alone; a memory threshold of 1.5% calls the memory alone.
function run(thresholds?: Record<string, number>) {
  const samples = pairedRun([
    { pairs: 30, metrics: [timing('wall-time', 1.03, 1), rss('peak-rss', 1.03)] },
  ]);
  return {
    ...samples,
    scenario: {
      ...samples.scenario,
      analysis: {
        ...samples.scenario.analysis,
        ...(thresholds === undefined ? {} : { thresholds }),
      },
    },
  };
}

const verdicts = (report: ReturnType<typeof analyzeSamples>) =>
  Object.fromEntries(report.results.map((r) => [r.benchmark, r.comparison?.verdict]));

describe('analysis.thresholds: each result judged with its metric’s threshold', () => {
  it('knows time and memory by their units', () => {
    for (const unit of ['ns/op', 'ms', 'us/iter', 's', 'ms/op'])
      expect(metricKind(unit)).toBe('time');
    for (const unit of ['KiB', 'B/op', 'allocs/op', 'B', 'allocs/iter', 'MB'])
      expect(metricKind(unit)).toBe('memory');
    for (const unit of ['ops/s', 'MB/s', 'words/op', '', 'counts'])
      expect(metricKind(unit)).toBeNull();
  });

  it('takes a name first, then the kind, then the run’s threshold', () => {
    const own = { time: 0.015, memory: 0.1, 'BenchmarkX - allocs/op': 0.01 };
    expect(thresholdFor('BenchmarkX - allocs/op', 'allocs/op', 0.05, own)).toBe(0.01);
    expect(thresholdFor('BenchmarkY - allocs/op', 'allocs/op', 0.05, own)).toBe(0.1);
    expect(thresholdFor('BenchmarkY', 'ns/op', 0.05, own)).toBe(0.015);
    expect(thresholdFor('BenchmarkY - MB/s', 'MB/s', 0.05, own)).toBe(0.05);
    expect(thresholdFor('BenchmarkY', 'ns/op', 0.05, undefined)).toBe(0.05);
  });

  it('judges, records and shows them', () => {
    const plain = analyzeSamples(run());
    expect(verdicts(plain)).toEqual({ 'wall-time': 'unchanged', 'peak-rss': 'unchanged' });
    expect(plain.settings.thresholds).toBeUndefined();
    expect(describeReport(plain)).toContain('; threshold ±5.00%');

    const time = analyzeSamples(run({ time: 0.015 }));
    expect(verdicts(time)).toEqual({ 'wall-time': 'regression', 'peak-rss': 'unchanged' });
    expect(time.settings.thresholds).toEqual({ time: 0.015 });
    expect(time.results.map((r) => r.comparison!.threshold)).toEqual([0.015, 0.05]);
    expect(describeReport(time)).toContain('; thresholds ±1.50% (time), ±5.00% (memory)');

    const memory = analyzeSamples(run({ time: 0.05, memory: 0.015 }));
    expect(verdicts(memory)).toEqual({ 'wall-time': 'unchanged', 'peak-rss': 'regression' });
    const markdown = renderMarkdown(memory, SAMPLE_META);
    expect(markdown).toContain(
      '**Thresholds** (practical significance): ±5.00%; time ±5.00%, memory ±1.50%',
    );
    expect(markdown).toContain("the row's threshold (see Method)");

    // the command line's over the scenario's, key by key
    const cli = analyzeSamples(run({ time: 0.015 }), { thresholds: { 'peak-rss': 0.015 } });
    expect(cli.settings.thresholds).toEqual({ time: 0.015, 'peak-rss': 0.015 });
    expect(verdicts(cli)).toEqual({ 'wall-time': 'regression', 'peak-rss': 'regression' });
  });

  it('reads repeated --threshold options, and names a bad one', () => {
    let flags = collectThreshold('3%');
    flags = collectThreshold('memory=5%', flags);
    flags = collectThreshold('BenchmarkX - allocs/op=1%', flags);
    expect(flags).toEqual({
      threshold: 0.03,
      thresholds: { memory: 0.05, 'BenchmarkX - allocs/op': 0.01 },
    });
    expect(() => collectThreshold('memory=0')).toThrow(/got "0"; expected a fraction above 0/);
    expect(() => collectThreshold('=5%')).toThrow(
      /expected a threshold like 5%, or KIND=THRESHOLD/,
    );
  });
});
