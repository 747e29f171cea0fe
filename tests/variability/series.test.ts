import { plantedHistory } from '../../benchmarks/variability/history.js';
import type { HistoryEntry } from '../../src/history/schema.js';
import { analyzeVariability } from '../../src/variability/analyze.js';
import { buildSeries } from '../../src/variability/series.js';

const NOW = new Date('2026-12-01T00:00:00Z');

/** 40 nightly runs of two benchmarks with the bad data a real history collects. */
function messyHistory(): HistoryEntry[] {
  const entries = plantedHistory({ runs: 40, seed: 4 });
  return entries
    .map((e, i) => {
      const b = e.benchmarks[0]!;
      const other = { ...b, name: i < 25 ? 'old-name' : 'new-name', value: 50 + (i % 3) };
      const unit = i < 10 ? { ...b, unit: 'µs', value: b.value! * 1000 } : b;
      const failed = i === 30 ? { ...unit, value: null, error: 'exit code 137\nkilled' } : unit;
      return { ...e, benchmarks: [failed, other] };
    })
    .filter((_, i) => i < 15 || i > 22) // a week without runs
    .map((e, i) => (i === 3 ? { ...e, run: { ...e.run, complete: false } } : e));
}

describe('buildSeries: bad data is left out with its reason, units are never mixed', () => {
  const { series, skipped } = buildSeries(messyHistory());
  const bench = series.find((s) => s.benchmark === 'bench')!;

  it('keeps the latest unit and skips the earlier values, naming both units', () => {
    expect(bench.unit).toBe('ms');
    expect(bench.points.every((p) => p.value < 200)).toBe(true);
    const unitSkips = skipped.filter(
      (s) => s.benchmark === 'bench' && /units are never mixed/.test(s.reason),
    );
    expect(unitSkips).toHaveLength(9); // runs 0..9 but run 3 was interrupted
    expect(unitSkips[0]!.reason).toMatch(
      /recorded in µs \(median\); the latest runs are in ms \(median\)/,
    );
  });

  it('skips interrupted runs and failed benchmarks, with the error', () => {
    expect(skipped).toContainEqual(
      expect.objectContaining({
        runId: 'run-0003',
        reason: 'the run was interrupted (complete: false)',
      }),
    );
    expect(skipped).toContainEqual(
      expect.objectContaining({
        benchmark: 'bench',
        runId: 'run-0030',
        reason: 'failed: exit code 137',
      }),
    );
  });

  it('notes the gap and the likely rename on both series', () => {
    expect(bench.notes.join('\n')).toMatch(/no runs from 2026-01-19 to 2026-01-28 \(9\.0 days\)/);
    const renamed = series.filter((s) => s.benchmark.endsWith('-name'));
    expect(renamed).toHaveLength(2);
    for (const s of renamed)
      expect(s.notes.join('\n')).toMatch(
        /"old-name" last ran in run run-0024 and "new-name" first ran/,
      );
  });

  it('the whole analysis runs on it without a crash, and says what it skipped', () => {
    const report = analyzeVariability(messyHistory(), {
      now: NOW,
      warnings: ['duetkit/entries/x.json: not JSON'],
    });
    expect(report.suites[0]!.benchmarks.map((b) => b.benchmark)).toEqual([
      'bench',
      'new-name',
      'old-name',
    ]);
    expect(report.skipped.length).toBeGreaterThan(10);
    expect(report.warnings).toEqual(['duetkit/entries/x.json: not JSON']);
  });

  it('ignores an A/A block that does not validate, saying which field', () => {
    const entries = plantedHistory({ runs: 5, seed: 1, aa: { mde: 0.01, falsePositive: 0 } });
    (entries[2]!.aa as Record<string, unknown>).calledChanged = 'yes';
    const r = buildSeries(entries);
    expect(r.skipped).toContainEqual(
      expect.objectContaining({
        runId: 'run-0002',
        reason: expect.stringMatching(/A\/A block ignored: aa\.calledChanged/),
      }),
    );
    expect(r.series[0]!.points.filter((p) => p.aa !== null)).toHaveLength(4);
  });
});

describe('buildSeries: runs on different CPU models', () => {
  it('notes the models, their runs and the last change', () => {
    const entries = plantedHistory({ runs: 10, seed: 4 }).map((e, i) => ({
      ...e,
      infrastructure: {
        ...e.infrastructure,
        cpuModel: i < 7 ? 'AMD EPYC 7763 64-Core Processor' : 'AMD EPYC 9V74 80-Core Processor',
      },
    }));
    const bench = buildSeries(entries).series.find((s) => s.benchmark === 'bench')!;
    const changed = new Date(bench.points[7]!.at).toISOString().slice(0, 10);
    expect(bench.notes).toContain(
      `measured on 2 CPU models (AMD EPYC 7763 64-Core Processor: 7 runs; AMD EPYC 9V74 80-Core Processor: 3 runs), last changed on ${changed} from AMD EPYC 7763 64-Core Processor to AMD EPYC 9V74 80-Core Processor: values may step where the model changes`,
    );
    const same = buildSeries(plantedHistory({ runs: 10, seed: 4 })).series[0]!;
    expect(same.notes.join('\n')).not.toMatch(/CPU models/);
  });
});
