import { renderMarkdown } from '../../src/report/markdown.js';
import { describeReport } from '../../src/report/terminal.js';
import { explainedReport } from '../explain/fixtures.js';
import { SAMPLE_META } from './fixtures.js';

describe('the differential where people look', () => {
  const report = explainedReport();

  it('lists the top functions under the row in the terminal report (snapshot)', () => {
    const text = describeReport(report);
    expect(text).toMatchSnapshot();
    const lines = text.split('\n');
    const row = lines.findIndex((l) => l.startsWith('parse ') && l.endsWith('regression'));
    expect(lines[row + 1]).toBe(
      '  ↳ where the time went (perf, 4800 base / 4800 head samples, 4.2 s profiling):',
    );
    expect(lines[row + 2]).toMatch(
      /^ {4}parse_line self \+\d+\.\d% of base time \[\+\d+\.\d, \+\d+\.\d\] \(share \d+\.\d% → \d+\.\d%\)$/,
    );
    expect(text).toContain('    flame graph: profiles/parse/diff.html');
    // the program's entry (main: 99% of both sides) carries the whole change: not listed
    expect(text).not.toMatch(/^ {4}main total/m);
    expect(text).toMatch(
      /render .*improvement\n {2}↳ no profile: perf could not profile head: perf_event_paranoid is 4 and sudo -n is refused\n/,
    );
    expect(text).toMatch(
      /↳ where the time went \(perf, 2000 base \/ 2000 head samples, 1\.5 s profiling\): no function's contribution beyond noise \(\d+ tested, 99% together, at least 0\.5% of base time\)/,
    );
  });

  it('lists them under the table of the PR comment, escaped (snapshot)', () => {
    const markdown = renderMarkdown(report, SAMPLE_META);
    expect(markdown).toMatchSnapshot();
    expect(markdown).toContain(
      '**Where the time went** (differential profiles of base and head, after the verdict):',
    );
    expect(markdown).toMatch(
      /- \*\*parse\*\* \(perf, 4800 base \/ 4800 head samples, 4\.2 s profiling\): `parse_line` self \+\d+\.\d% of base time \[\+\d+\.\d, \+\d+\.\d\]/,
    );
    expect(markdown).toContain('flame graph: `profiles/parse/diff.html` in the results');
    expect(markdown).toContain(
      '- **serialize @&#8203;octocat &lt;b&gt;\\|&lt;/b&gt;** (perf, 2000 base / 2000 head samples, 1.5 s profiling): no function',
    );
    // the table itself keeps its nine cells per row
    for (const row of markdown.split('\n').filter((l) => l.startsWith('| '))) {
      expect(row.split(/(?<!\\)\|/).length - 2).toBe(8);
    }
  });

  it('sets hostile function names in code spans that cannot be closed', () => {
    const hostile = explainedReport();
    const e = hostile.results[0]!.explain!;
    e.functions[0] = { ...e.functions[0]!, name: 'evil` @here\n<img src=x>' };
    const markdown = renderMarkdown(hostile, SAMPLE_META);
    expect(markdown).toContain("`evil' @here <img src=x>` self");
  });

  it('says what base time is when it is the whole command’s, and reads early blocks as they were', () => {
    const command = explainedReport();
    const e = command.results[0]!.explain!;
    e.timeRatioSource = 'command';
    expect(describeReport(command)).toContain('4.2 s profiling; base time = the whole command):');
    // a block written before contributions had intervals: the change of share, as before
    const early = explainedReport();
    const old = early.results[0]!.explain!;
    delete old.timeRatioInterval;
    old.functions = old.functions.map(
      ({ contributionLower: _l, contributionUpper: _u, ...f }) => f,
    );
    const text = describeReport(early);
    expect(text).toMatch(/ {4}parse_line self \+\d\.\d pp \[\+\d\.\d, \+\d\.\d\]\n/);
  });
});
