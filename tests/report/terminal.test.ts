import { renderComparisonTable, type TableRow } from '../../src/report/terminal.js';
import { sampleReport } from './fixtures.js';

describe('renderComparisonTable', () => {
  const report = sampleReport();
  const rows: TableRow[] = report.results.flatMap((r): TableRow[] => {
    if (r.comparison !== null)
      return [{ name: r.benchmark, unit: r.unit, comparison: r.comparison }];
    if (r.notComparable !== null) {
      return [{ name: r.benchmark, unit: r.unit, notComparable: r.notComparable }];
    }
    return [];
  });

  it('shows a benchmark that is not comparable as a row with what each side measured', () => {
    const lines = renderComparisonTable(rows).split('\n');
    expect(lines[0]).toMatch(
      /^benchmark +base +head +change +99% CI +p \(Wilcoxon, holm\) +verdict$/,
    );
    expect(lines[5]).toMatch(
      /^parse - system +0 s ±0\.0% +4\.000e-4 s ±60\.0% +– +– +– +not comparable$/,
    );
    expect(lines).toContain(
      'parse - system: not comparable: base values are all 0: a relative change (head/base − 1) is undefined',
    );
    // the method lines describe the comparisons only
    expect(lines.filter((l) => l.includes('could detect changes'))).toHaveLength(4);
  });

  it('renders a table of benchmarks none of which is comparable', () => {
    const text = renderComparisonTable(rows.filter((r) => 'notComparable' in r));
    expect(text.split('\n')[0]).toMatch(/^benchmark +base +head +change +CI +p +verdict$/);
    expect(text).toContain(
      '\nnot comparable: base values are all 0: a relative change (head/base − 1) is undefined\n',
    );
    expect(text).not.toContain('method:');
  });
});
