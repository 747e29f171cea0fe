/// <reference lib="dom" />
import { drawChart } from '../chart.js';
import { findSuite, loadBenchmark, loadIndex, type BenchmarkHistory } from '../data.js';
import { h } from '../dom.js';
import { formatInterval, formatPercent, formatTime, formatValue, verdictName } from '../format.js';
import { suiteHref } from '../route.js';
import { benchmarkKeyOf } from '../keys.js';
import { registerView } from './registry.js';
import { badge } from './suite.js';
import { notFound, suiteHeader } from './suite-header.js';

/** `#/s/SUITE/b/BENCHMARK`: one benchmark over time, and its runs. */
registerView({
  id: 'benchmark',
  match: (route) =>
    route.parts[0] === 's' && route.parts[2] === 'b' && route.parts.length === 4
      ? { suite: route.parts[1]!, benchmark: route.parts[3]! }
      : null,
  async render({ suite, benchmark }, ctx) {
    const found = await findSuite(suite);
    if (found === null) return notFound(ctx, `No suite named “${suite}” in this history.`);
    const index = await loadIndex(found.key);
    ctx.setTitle(`${benchmark} · ${suite} · duetkit`);
    ctx.setCrumbs([{ label: suite, href: suiteHref(suite) }, { label: benchmark }]);
    const key =
      index.benchmarks.find((b) => b.name === benchmark)?.key ?? (await benchmarkKeyOf(benchmark));
    const chartBox = h('div', { class: 'chart', 'aria-label': `${benchmark} over time` });
    ctx.root.replaceChildren(
      suiteHeader(index, 'benchmark', []),
      h('h2', { class: 'bench-name' }, benchmark),
      chartBox,
      h(
        'p',
        { class: 'muted legend' },
        'Line: the statistic; band: its confidence interval; points: the comparison’s verdict (▼ regression, ▲ improvement). Hover for the run, click to pin.',
      ),
    );
    const data = await loadBenchmark(index, key);
    if (data === null) {
      chartBox.replaceWith(h('p', {}, `No runs of “${benchmark}” in this suite.`));
      return;
    }
    const chart = drawChart(chartBox, data);
    ctx.root.append(summary(data), runsTable(data));
    return chart.dispose;
  },
});

function summary(data: BenchmarkHistory): HTMLElement {
  const values = data.v.filter((v): v is number => v !== null);
  const min = Math.min(...values);
  const max = Math.max(...values);
  const called = data.k.filter((k) => k === 1 || k === 2).length;
  return h(
    'p',
    { class: 'muted' },
    `${data.runs.length} runs · ${values.length === 0 ? '' : `range ${formatValue(min, data.unit)} – ${formatValue(max, data.unit)} · `}${called} called changes · ${data.biggerIsBetter ? 'bigger' : 'smaller'} is better`,
  );
}

/** The newest runs first (the last 200). */
function runsTable(data: BenchmarkHistory): HTMLElement {
  const order = data.runs
    .map((_, i) => i)
    .reverse()
    .slice(0, 200);
  return h(
    'section',
    { class: 'runs' },
    h('h2', {}, 'Runs'),
    h(
      'div',
      { class: 'scroll' },
      h(
        'table',
        {},
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['when', 'commit', 'value', 'interval', 'change', 'verdict', 'run'].map((c) =>
              h('th', {}, c),
            ),
          ),
        ),
        h(
          'tbody',
          {},
          order.map((i) => {
            const run = data.runs[i]!;
            const v = data.v[i];
            const c = data.c[i];
            return h(
              'tr',
              {},
              h('td', {}, formatTime(run.t)),
              h(
                'td',
                { class: 'commit' },
                run.commit === null
                  ? '–'
                  : [
                      run.commit.url === null
                        ? h('code', {}, run.commit.id.slice(0, 7))
                        : h(
                            'a',
                            { href: run.commit.url },
                            h('code', {}, run.commit.id.slice(0, 7)),
                          ),
                      ` ${run.commit.message}`,
                    ],
              ),
              h(
                'td',
                { class: 'num' },
                data.e[i]
                  ? h('span', { class: 'error', title: data.e[i]! }, 'failed')
                  : v == null
                    ? '–'
                    : formatValue(v, data.unit),
              ),
              h(
                'td',
                { class: 'num' },
                data.lo[i] == null || data.hi[i] == null
                  ? ''
                  : `[${formatValue(data.lo[i]!)}, ${formatValue(data.hi[i]!)}]`,
              ),
              h(
                'td',
                { class: 'num' },
                c == null ? '' : `${formatPercent(c)} ${formatInterval(data.cl[i]!, data.ch[i]!)}`,
              ),
              h('td', {}, c == null ? '' : badge(verdictName(data.k[i]))),
              h('td', {}, run.url === null ? '' : runLinks(run.url, data.k[i])),
            );
          }),
        ),
      ),
    ),
  );
}

/**
 * The workflow run, and for a called change its artifact, where the differential flame graph
 * of base and head is (`profiles/<benchmark>/diff.html`, issue 23). The history keeps no
 * artifact URLs (they expire, and the run's page lists them): the link goes to the run page's
 * artifacts section.
 */
function runLinks(url: string, k: number | null | undefined): HTMLElement[] {
  const run = h('a', { href: url }, 'run');
  if (k !== 1 && k !== 2) return [run];
  const title =
    "the run's artifact holds the differential flame graph: profiles/<benchmark>/diff.html";
  return [run, h('span', {}, ' · '), h('a', { href: `${url}#artifacts`, title }, 'flame graph')];
}
