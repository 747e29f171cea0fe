import { analyzeSamples } from '../../src/analyze/analyze.js';
import { runContextFromEnv } from '../../src/history/context.js';
import { buildEntry } from '../../src/history/entry.js';
import { parseEntry } from '../../src/history/schema.js';
import { asSuite, constant, pairedRun, timing } from '../analyze/fixtures.js';

describe('history entry of a run the budget ended', () => {
  it('records an unmeasured benchmark with its reason, no value and no error; exact ones as compared', () => {
    const samples = asSuite(
      pairedRun(
        [
          {
            benchmark: 'BenchmarkA',
            pairs: 25,
            metrics: [
              timing('BenchmarkA', 1),
              constant('BenchmarkA - allocs/op', 'allocs/op', 2, 3),
            ],
          },
          { benchmark: 'BenchmarkB', pairs: 1, metrics: [timing('BenchmarkB', 1)] },
        ],
        { stopReason: 'budget', budget: 120 },
      ),
      [
        { name: 'BenchmarkA', pairs: 25, stopReason: 'iterations' },
        { name: 'BenchmarkB', pairs: 1, stopReason: 'budget' },
        { name: 'BenchmarkC', pairs: 0, stopReason: 'iterations' },
      ],
    );
    const entry = buildEntry({
      samples,
      report: analyzeSamples(samples),
      suite: 'core',
      runId: '2026-11-26T10-00-00Z-1',
      context: runContextFromEnv({}),
      commit: null,
      recordedAt: '2026-11-26T10:02:00.000Z',
    });
    const byName = Object.fromEntries(entry.benchmarks.map((b) => [b.name, b]));
    expect(byName['BenchmarkB']).toMatchObject({
      value: null,
      ci: null,
      n: 0,
      cv: null,
      comparison: null,
      error: null,
      unmeasured: 'only 1 pair within the budget (120 s): at least 2 are needed for an interval',
    });
    expect(byName['BenchmarkC']).toMatchObject({
      value: null,
      error: null,
      unmeasured: expect.stringMatching(/^not measured within the budget \(120 s\): 0 pairs/),
    });
    expect(byName['BenchmarkA']!.value).not.toBeNull();
    expect(byName['BenchmarkA']!.unmeasured).toBeUndefined();
    expect(byName['BenchmarkA - allocs/op']).toMatchObject({
      value: 3,
      comparison: { change: 0.5, verdict: 'regression', pValueAdjusted: 0 },
      error: null,
    });
    // and the entry passes the history's own schema
    const parsed = parseEntry(JSON.stringify(entry), 'entry.json');
    expect(parsed.benchmarks.find((b) => b.name === 'BenchmarkB')!.unmeasured).toMatch(
      /^only 1 pair/,
    );
  });
});
