import { analyzeSamples } from '../../src/analyze/analyze.js';
import { describeReport } from '../../src/report/terminal.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { asSuite, constant, pairedRun, timing } from '../analyze/fixtures.js';
import { SAMPLE_META } from './fixtures.js';

/**
 * A suite the budget ended: A measured (unchanged timing, allocs/op 2 → 3, the same B/op),
 * B with one pair, C with none.
 */
function report() {
  const run = pairedRun(
    [
      {
        benchmark: 'BenchmarkA',
        pairs: 25,
        metrics: [
          timing('BenchmarkA', 1),
          constant('BenchmarkA - allocs/op', 'allocs/op', 2, 3),
          constant('BenchmarkA - B/op', 'B/op', 2048, 2048),
        ],
      },
      { benchmark: 'BenchmarkB', pairs: 1, metrics: [timing('BenchmarkB', 1)] },
    ],
    { stopReason: 'budget', budget: 120 },
  );
  return analyzeSamples(
    asSuite(run, [
      { name: 'BenchmarkA', pairs: 25, stopReason: 'iterations' },
      { name: 'BenchmarkB', pairs: 1, stopReason: 'budget' },
      { name: 'BenchmarkC', pairs: 0, stopReason: 'iterations' },
    ]),
  );
}

const UNMEASURED =
  'BenchmarkB, BenchmarkC — a longer budget or fewer benchmarks (workload.benchmarks) would reach them';

describe('the terminal report: exact lines and benchmarks not measured', () => {
  const text = describeReport(report());

  it('shows a differing exact metric as one line, never as a table row, and hides a tie', () => {
    expect(text).toContain(
      '\nBenchmarkA - allocs/op: 2 → 3 allocs/op (+50.00%, exact) regression\n',
    );
    expect(text).not.toMatch(/^BenchmarkA - allocs\/op +/m); // no table row
    expect(text).not.toContain('B/op');
    expect(text).toMatch(/^BenchmarkA +\d+\.\d+ ns\/op ±[\d.]+% .* unchanged$/m);
  });

  it('lists the unmeasured benchmarks in their own section, apart from errors', () => {
    expect(text).toContain(`\nnot measured within the budget (2): ${UNMEASURED}\n`);
    expect(text).not.toContain('error:');
    expect(text).toContain(
      '\nsummary: 1 regression, 0 improvement, 1 unchanged, 0 inconclusive, 0 not comparable, 0 error, 2 not measured\n',
    );
  });
});

describe('the markdown report: exact lines and benchmarks not measured', () => {
  const markdown = renderMarkdown(report(), SAMPLE_META);

  it('counts the unmeasured apart in the headline', () => {
    expect(markdown).toContain(
      '\n**1 regression, 0 improvements, 1 unchanged, 2 not measured** — duet, not CPU-isolated, 99% CI\n',
    );
  });

  it('has one table row (the timing); the exact change is a line below it, the tie is left out', () => {
    const rows = markdown
      .split('\n')
      .filter((l) => l.startsWith('| ') && !l.startsWith('| benchmark') && !l.startsWith('| :--'));
    expect(rows.map((r) => r.split(' | ')[0])).toEqual(['| BenchmarkA']);
    expect(markdown).toContain(
      '\n- **BenchmarkA - allocs/op**: 2 → 3 allocs/op (+50.00%, exact) 🔴 regression\n',
    );
    expect(markdown).not.toContain('B/op');
    expect(markdown).toContain('adjusted p: Holm across 1 comparisons.');
    expect(markdown).toContain(
      '- **Exact:** 2 metrics were one constant on each side (e.g. allocs/op), compared exactly by head/base − 1 and the threshold alone, outside the multiple-comparison family; 1 of them equal on both sides is not listed (all are in comparison.json).',
    );
  });

  it('lists the unmeasured benchmarks in a short section, not under Errors', () => {
    expect(markdown).toContain(`\n**Not measured within the budget (2):** ${UNMEASURED}.\n`);
    expect(markdown).not.toContain('#### Errors');
  });

  it('says there is no verdict when the budget measured nothing, still without an error', () => {
    const none = analyzeSamples(
      asSuite(pairedRun([], { stopReason: 'budget', budget: 60 }), [
        { name: 'BenchmarkA', pairs: 0, stopReason: 'iterations' },
      ]),
    );
    const md = renderMarkdown(none, SAMPLE_META);
    expect(md).toContain(
      '**Not measured within the budget (1):** BenchmarkA — a longer budget or fewer benchmarks (workload.benchmarks) would reach them. Nothing was measured enough to compare, so there is no verdict.',
    );
    expect(md).not.toContain('#### Errors');
    expect(describeReport(none)).toContain(
      '\nnothing was measured enough to compare: no verdict\n',
    );
  });
});
