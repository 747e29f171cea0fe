import { renderMarkdown } from '../../src/report/markdown.js';
import { recentTrends, sparkText } from '../../src/history/trend.js';
import { SAMPLE_META, sampleReport } from '../report/fixtures.js';
import { makeEntry } from './helpers.js';

describe('the PR comment trend', () => {
  it('sparkText maps values to eight levels, gaps to ·', () => {
    expect(sparkText([1, 2, 3, 4, 5, 6, 7, 8])).toBe('▁▂▃▄▅▆▇█');
    expect(sparkText([5, null, 5])).toBe('▄·▄');
    expect(sparkText([10, 20])).toBe('▁█');
    expect(sparkText([null])).toBe('');
  });

  it('recentTrends takes the newest runs of each benchmark', () => {
    const entries = [100, 101, 99, 120, 121].map((v, i) =>
      makeEntry({ runId: `r${i}`, values: i < 2 ? { parse: v } : { parse: v, added: v / 10 } }),
    );
    const trends = recentTrends(entries, 4);
    expect(trends.get('parse')).toEqual({ spark: '▁▁██', runs: 4, spread: (121 - 99) / 120 });
    // A benchmark that appeared later starts where it appeared.
    expect(trends.get('added')!.spark).toBe('▁██');
  });

  it('the comment gets a trend column when there is one', () => {
    const withTrend = renderMarkdown(sampleReport(), {
      ...SAMPLE_META,
      trends: { label: 'trend (last 3 runs)', byBenchmark: { parse: '▁▄█' } },
    });
    const header = withTrend.split('\n').find((l) => l.startsWith('| benchmark'))!;
    expect(header.endsWith('| verdict | trend (last 3 runs) |')).toBe(true);
    expect(withTrend).toMatch(/\n\| parse \|.*\| `▁▄█` \|\n/);
    expect(renderMarkdown(sampleReport(), SAMPLE_META)).not.toContain('trend');
  });
});
