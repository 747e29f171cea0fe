import { headline, renderMarkdown } from '../../src/report/markdown.js';
import { chooseScale, intervalBar } from '../../src/report/interval-bar.js';
import { SAMPLE_META, sampleReport } from './fixtures.js';

describe('renderMarkdown', () => {
  const report = sampleReport();
  const markdown = renderMarkdown(report, SAMPLE_META);

  it('has one verdict of each kind in the fixture', () => {
    expect(report.summary).toEqual({
      regression: 1,
      improvement: 1,
      unchanged: 1,
      inconclusive: 1,
      notComparable: 1,
      error: 1,
    });
  });

  it('renders the whole report (snapshot)', () => {
    expect(markdown).toMatchSnapshot();
  });

  it('starts with the headline the issue asks for', () => {
    expect(headline(report)).toBe(
      '**1 regression, 1 improvement, 1 unchanged, 1 inconclusive, 1 not comparable, 1 error** — duet, cpuset-isolated, 99% CI',
    );
  });

  it('keeps every table row at nine cells, whatever the benchmark is called', () => {
    const rows = markdown.split('\n').filter((line) => line.startsWith('| '));
    expect(rows).toHaveLength(7); // header + 5 benchmarks; the separator starts with "| :"
    for (const row of rows) {
      // Split on pipes that are not escaped.
      expect(row.split(/(?<!\\)\|/).length - 2).toBe(8);
    }
  });

  it('shows a benchmark that is not comparable as a row, with its reason below', () => {
    expect(markdown).toContain(
      '| parse - system | 0 s | 4.000e-4 s | – | – |  | – | ➖ not comparable |',
    );
    expect(markdown).toContain(
      '**Not comparable:** no relative change (head/base − 1) can be formed from these values, so they have no verdict; the other benchmarks decide.\n\n- **parse - system**: base values are all 0\\: a relative change \\(head/base − 1\\) is undefined\n',
    );
    // not an error, and not a comparison in the method section
    expect(markdown).not.toContain('**parse - system** could not be compared');
    expect(markdown).toContain('across 4 comparisons');
  });

  it('says there is no verdict when nothing could be compared', () => {
    const only = {
      ...report,
      results: report.results.filter((r) => r.notComparable !== null),
      summary: {
        ...report.summary,
        regression: 0,
        improvement: 0,
        unchanged: 0,
        inconclusive: 0,
        error: 0,
      },
    };
    const text = renderMarkdown(only, SAMPLE_META);
    expect(text).toContain('**0 regressions, 0 improvements, 0 unchanged, 1 not comparable**');
    expect(text).toContain('so they have no verdict.\n');
    expect(text).toContain(
      '#### Errors\n\nNo benchmark could be compared, so there is no verdict.',
    );
  });

  it('lets no outside text through as markup', () => {
    // GitHub links no mention and renders no HTML inside a code block: check the rest.
    const outsideCode = markdown.replace(/(`{3,})text\n[\s\S]*?\n {2}\1/g, '');
    expect(outsideCode).not.toMatch(/@octocat|@here|<b>/);
    expect(markdown).toContain('@&#8203;octocat &lt;b&gt;\\|&lt;/b&gt;');
    // The error's own ``` and </details> stay inside a longer fence.
    expect(markdown).toMatch(
      /````text\n {2}base has fewer than 2 values\n {2}```\n {2}@here <\/details>\n {2}````/,
    );
    expect(markdown.match(/<\/details>/g)).toHaveLength(2);
  });

  it('states the CPU plan, the partition and the machine when they were recorded', () => {
    const report = sampleReport();
    const text = renderMarkdown(
      {
        ...report,
        isolation: {
          ...report.isolation,
          slots: ['1', '3'],
          harnessCpus: '0,2',
          partition: 'root',
          cpuPlan: {
            basis: 'topology',
            layout: '1 package × 2 cores × 2 threads',
            harness: '0,2',
            slots: ['1', '3'],
            idle: null,
            spare: null,
            siblingsInUse: true,
            reasons: [],
          },
        },
        fingerprint: {
          cpuModel: 'AMD EPYC 7763 64-Core Processor',
          microcode: null,
          kernel: '6.11.0-1018-azure',
          arch: 'x64',
          vcpus: 4,
          layout: '1 package × 2 cores × 2 threads',
          cgroup: 'v2',
          isolation: 'cgroup-v2',
          hypervisor: { present: true, type: null, vendor: null, product: null },
          image: { os: 'ubuntu24', version: null, runnerOs: 'Linux', runnerArch: 'X64' },
          id: '0123456789ab',
        },
      },
      SAMPLE_META,
    );
    expect(text).toContain(
      "**Isolation in effect:** cgroup v2 cpuset, CPUs 1 | 3, exclusive (partition root), harness on CPU 0,2; 1 package × 2 cores × 2 threads, the measured CPUs' SMT siblings in use (requested: auto)",
    );
    expect(text).toContain(
      '**Machine:** AMD EPYC 7763 64-Core Processor, 4 vCPUs \\(1 package × 2 cores × 2 threads\\), x64 Linux 6.11.0-1018-azure, cgroup v2, virtual \\(hypervisor flag\\), image ubuntu24, fingerprint 0123456789ab.',
    );
  });

  it('states how the numbers were obtained', () => {
    for (const text of [
      '**Mode:** duet',
      'stopped when every interval was narrow enough',
      '**Isolation in effect:** cgroup v2 cpuset, CPUs 1 | 2, harness on CPU 0 (requested: auto)',
      '**n:** 20 pairs per benchmark',
      '99% CI of the 20% trimmed mean of the log pair ratios (Tukey–McLaughlin)',
      'Holm (family-wise error) across 4 comparisons',
      '**Minimum detectable effect** (at 80% power): parse ≥ ',
      '**Runner:** GitHub Actions runner',
      '**Duration:** 1 min 23 s',
      '⚠️ SMT siblings share a core',
    ]) {
      expect(markdown).toContain(text);
    }
  });

  it('fits a GitHub comment: unchanged rows go first, then the text is cut', () => {
    const short = renderMarkdown(report, SAMPLE_META, markdown.length - 1);
    expect(short).not.toContain('| serialize');
    expect(short).toContain('| parse |');
    expect(short).toContain('1 unchanged benchmarks are not listed');
    const cut = renderMarkdown(report, SAMPLE_META, 1000);
    expect(cut.length).toBeLessThanOrEqual(1000);
    expect(cut).toContain('**Cut here: the report is longer than a GitHub comment may be.**');
  });

  it('marks an incomplete run', () => {
    const partial = renderMarkdown(
      { ...report, complete: false, stopReason: 'interrupted' },
      SAMPLE_META,
    );
    expect(partial).toContain('> [!WARNING]\n> Incomplete run (interrupted)');
  });
});

describe('intervalBar', () => {
  const scale = { limit: 0.2, width: 21 };
  it('draws zero, the thresholds, the interval and the estimate', () => {
    expect(intervalBar(0.1, 0.08, 0.12, 0.05, scale)).toBe('┈┈┈┈┈┈┈┆┈┈│┈┈┆━●━┈┈┈┈');
    expect(intervalBar(0, -0.01, 0.01, 0.05, scale)).toBe('┈┈┈┈┈┈┈┆┈┈●┈┈┆┈┈┈┈┈┈┈');
  });
  it('clips at the edges with arrows', () => {
    expect(intervalBar(-0.5, -0.9, -0.3, 0.05, scale)).toBe('●┈┈┈┈┈┈┆┈┈│┈┈┆┈┈┈┈┈┈┈');
    expect(intervalBar(0.15, 0.1, 0.4, 0.05, scale).endsWith('▸')).toBe(true);
  });
  it('chooses the smallest nice scale that holds everything', () => {
    expect(chooseScale([{ lower: 0.01, upper: 0.03 }], 0.05)).toEqual({ limit: 0.1, width: 25 });
    expect(chooseScale([{ lower: -0.3, upper: 0.03 }], 0.05, 20)).toEqual({
      limit: 0.5,
      width: 21,
    });
  });
});
