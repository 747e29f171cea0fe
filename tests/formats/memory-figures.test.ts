import { analyzeSamples } from '../../src/analyze/analyze.js';
import { describeReport } from '../../src/report/terminal.js';
import { byName, fixture, parse } from './helpers.js';
import { pairedRun, type MetricSpec } from '../analyze/fixtures.js';
import type { ParsedBenchmark } from '../../src/formats/types.js';
import { median } from '../../src/stats/descriptive.js';

const JOIN = 'duetkit.SumsBenchmark.joinWords ( {"n":"1000"} )';
const SUMS = 'duetkit.SumsBenchmark.sumSquares ( {"n":"1000"} )';
const NORM = 'gc.alloc.rate.norm'; // '·gc.alloc.rate.norm' before JMH 1.36
/** JMH 1.37 with -prof gc (tests/programs/java/regenerate.sh). */
const gc = fixture('jmh/bench-gc.json');

/** The same report with `bytes` more allocated per operation of joinWords. */
function allocatingMore(bytes: number): string {
  const json = JSON.parse(gc);
  const norm = json[0].secondaryMetrics[NORM];
  norm.rawData = norm.rawData.map((fork: number[]) => fork.map((v) => v + bytes));
  return JSON.stringify(json);
}

/** A duet whose trials report, on each side, the medians of what a tool printed. */
function runOf(base: ParsedBenchmark[], head: ParsedBenchmark[], pairs = 12) {
  const specs: MetricSpec[] = base.map((b) => ({
    name: b.name,
    unit: b.unit,
    biggerIsBetter: b.biggerIsBetter,
    value: (v) => median(v === 0 ? b.values : byName(head, b.name).values),
  }));
  const samples = pairedRun([{ pairs, metrics: specs }]);
  const derived = new Map(base.map((b) => [b.name, b.derivedFrom]));
  for (const trial of samples.trials) {
    for (const m of trial.metrics) {
      const from = derived.get(m.name);
      if (from !== undefined) m.derivedFrom = from;
    }
  }
  return samples;
}

describe("the tools' memory figures", () => {
  it('JMH -prof gc: the allocation per operation in whole bytes, the GC figures derived from the score', () => {
    const result = parse('jmh', gc);
    // 504.035, 504.050, 504.040 B/op in the file: JMH's own allocations spread over the ops
    expect(byName(result, `${JOIN} - ${NORM}`)).toMatchObject({
      unit: 'B/op',
      biggerIsBetter: false,
      values: [504, 504, 504],
    });
    // 0.048, 0.045, 0.037 B/op: sumSquares allocates nothing
    expect(byName(result, `${SUMS} - ${NORM}`).values).toEqual([0, 0, 0]);
    for (const key of ['gc.alloc.rate', 'gc.count', 'gc.time']) {
      expect(byName(result, `${JOIN} - ${key}`).derivedFrom).toBe(JOIN);
    }
    expect(byName(result, `${SUMS} - gc.alloc.rate`).derivedFrom).toBe(SUMS);
    expect(byName(result, JOIN).derivedFrom).toBeUndefined();
    // JMH before 1.36 wrote the keys after a middle dot
    const dotted = JSON.parse(gc);
    dotted[0].secondaryMetrics = Object.fromEntries(
      Object.entries(dotted[0].secondaryMetrics).map(([k, v]) => [`·${k}`, v]),
    );
    const old = parse('jmh', JSON.stringify(dotted));
    expect(byName(old, `${JOIN} - ·${NORM}`).values).toEqual([504, 504, 504]);
    expect(byName(old, `${JOIN} - ·gc.alloc.rate`).derivedFrom).toBe(JOIN);
  });

  it('JMH: 48 more bytes per operation is an exact regression; an A/A calls nothing and shows no memory line', () => {
    const base = parse('jmh', gc);
    const aa = analyzeSamples(runOf(base, base));
    const norm = aa.results.find((r) => r.benchmark === `${JOIN} - ${NORM}`)!;
    expect(norm.exact).toEqual({ base: 504, head: 504 });
    expect(aa.summary.regression + aa.summary.improvement).toBe(0);
    expect(describeReport(aa)).not.toContain('B/op');

    const more = analyzeSamples(runOf(base, parse('jmh', allocatingMore(48))));
    const called = more.results.find((r) => r.benchmark === `${JOIN} - ${NORM}`)!;
    expect(called.exact).toEqual({ base: 504, head: 552 });
    expect(called.comparison!.verdict).toBe('regression');
    expect(describeReport(more)).toContain(
      `${JOIN} - ${NORM}: 504 → 552 B/op (+9.52%, exact) regression`,
    );
    // the unallocating benchmark stays a tie (0 → 0), listed nowhere
    expect(describeReport(more)).not.toContain(`${SUMS} - ${NORM}`);
  });

  it("Google Benchmark's memory manager: allocations per iteration and bytes, compared exactly", () => {
    const json = JSON.parse(fixture('googlecpp/bench.json'));
    const withMemory = (allocs: number) => {
      const copy = structuredClone(json);
      // as benchmark's json_reporter.cc writes them when a MemoryManager is registered
      for (const b of copy.benchmarks)
        Object.assign(b, { allocs_per_iter: allocs, max_bytes_used: 4096 });
      return JSON.stringify(copy);
    };
    const base = parse('googlecpp', withMemory(2));
    const name = base[0]!.name;
    expect(byName(base, `${name} - allocs_per_iter`)).toMatchObject({
      unit: 'allocs/iter',
      biggerIsBetter: false,
    });
    expect(byName(base, `${name} - max_bytes_used`)).toMatchObject({
      unit: 'B',
      biggerIsBetter: false,
    });
    const report = analyzeSamples(runOf(base, parse('googlecpp', withMemory(3))));
    const allocs = report.results.find((r) => r.benchmark === `${name} - allocs_per_iter`)!;
    expect(allocs.exact).toEqual({ base: 2, head: 3 });
    expect(allocs.comparison!.verdict).toBe('regression');
    expect(describeReport(report)).toContain(
      `${name} - allocs_per_iter: 2 → 3 allocs/iter (+50.00%, exact) regression`,
    );
    expect(describeReport(report)).not.toContain('max_bytes_used');
  });
});
