/// <reference lib="dom" />
import {
  observeWindowOffset,
  observeWindowRect,
  Virtualizer,
  windowScroll,
} from '@tanstack/virtual-core';
import { findSuite, loadIndex, type IndexBenchmark, type SuiteIndex } from '../data.js';
import { h } from '../dom.js';
import {
  formatInterval,
  formatPercent,
  formatTime,
  formatValue,
  verdictName,
  type VerdictName,
} from '../format.js';
import { benchmarkHref, suiteHref, type Route } from '../route.js';
import { sparkline } from '../sparkline.js';
import { registerView, suiteTabs, type ViewContext } from './registry.js';
import { notFound, suiteHeader } from './suite-header.js';

const FILTERS: Record<string, { label: string; keep: (b: IndexBenchmark) => boolean }> = {
  all: { label: 'All benchmarks', keep: () => true },
  changed: { label: 'Changed recently', keep: (b) => b.moved.called },
  regression: { label: 'Regressed recently', keep: (b) => b.moved.k === 1 },
  improvement: { label: 'Improved recently', keep: (b) => b.moved.k === 2 },
  inconclusive: { label: 'Last change inconclusive', keep: (b) => b.last?.k === 3 },
  error: { label: 'Failing', keep: (b) => b.latest.error !== null },
};

const SORTS: Record<
  string,
  { label: string; compare?: (a: IndexBenchmark, b: IndexBenchmark) => number }
> = {
  moved: { label: 'Most changed recently' },
  name: { label: 'Name', compare: (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) },
  change: {
    label: 'Last change',
    compare: (a, b) => Math.abs(b.last?.c ?? 0) - Math.abs(a.last?.c ?? 0),
  },
};

/** `#/s/SUITE?q=&f=&sort=`: the suite's benchmarks, searchable, and its recent changes. */
registerView({
  id: 'suite',
  match: (route: Route) =>
    route.parts[0] === 's' && route.parts.length === 2
      ? { suite: route.parts[1]!, query: route.query }
      : null,
  async render({ suite, query }, ctx) {
    const found = await findSuite(suite);
    if (found === null) return notFound(ctx, `No suite named “${suite}” in this history.`);
    const index = await loadIndex(found.key);
    ctx.setTitle(`${suite} · duetkit`);
    ctx.setCrumbs([{ label: suite }]);
    const state = {
      q: query.get('q') ?? '',
      f: FILTERS[query.get('f') ?? ''] === undefined ? 'all' : query.get('f')!,
      sort: SORTS[query.get('sort') ?? ''] === undefined ? 'moved' : query.get('sort')!,
    };
    const search = h('input', {
      type: 'search',
      placeholder: `Search ${index.benchmarks.length} benchmarks`,
      'aria-label': 'Search benchmarks',
      value: state.q,
      class: 'search',
    });
    const filter = select('Filter', FILTERS, state.f);
    const sort = select('Sort', SORTS, state.sort);
    const count = h('span', { class: 'muted count' });
    const list = h('div', { class: 'list', role: 'list' });
    const spacer = h('div', { class: 'spacer' });
    list.append(spacer);
    ctx.root.replaceChildren(
      suiteHeader(index, 'suite', suiteTabs()),
      h('section', { class: 'controls' }, search, filter, sort, count),
      h(
        'div',
        { class: 'row head', 'aria-hidden': 'true' },
        h('span', { class: 'name' }, 'benchmark'),
        h('span', { class: 'value' }, 'latest'),
        h('span', { class: 'change' }, 'change'),
        h('span', { class: 'trend' }, `last ${Math.min(30, index.runs)} runs`),
      ),
      list,
      recentTable(index),
    );
    const stop = virtualList(index, list, spacer, state, count);
    const update = (): void => {
      state.q = search.value;
      state.f = filter.value;
      state.sort = sort.value;
      history.replaceState(
        null,
        '',
        suiteHref(suite, {
          q: state.q,
          f: state.f === 'all' ? '' : state.f,
          sort: state.sort === 'moved' ? '' : state.sort,
        }),
      );
      stop.refresh();
    };
    search.addEventListener('input', update);
    filter.addEventListener('change', update);
    sort.addEventListener('change', update);
    return stop.dispose;
  },
});

function select<T>(
  label: string,
  options: Record<string, T & { label: string }>,
  value: string,
): HTMLSelectElement {
  const el = h('select', { 'aria-label': label });
  for (const [key, o] of Object.entries(options))
    el.append(h('option', { value: key, selected: key === value }, o.label));
  return el;
}

/**
 * The benchmark list, virtualised: only the rows on screen (and a few more) exist in the
 * page, so 500 or 50,000 benchmarks cost the same to draw and to scroll.
 */
function virtualList(
  index: SuiteIndex,
  list: HTMLElement,
  spacer: HTMLElement,
  state: { q: string; f: string; sort: string },
  count: HTMLElement,
): { refresh(): void; dispose(): void } {
  let shown: IndexBenchmark[] = [];
  const rowHeight = (): number => (window.matchMedia('(max-width: 640px)').matches ? 84 : 52);
  const options = {
    count: 0,
    getScrollElement: () => window,
    estimateSize: rowHeight,
    overscan: 6,
    scrollToFn: windowScroll,
    observeElementRect: observeWindowRect,
    observeElementOffset: observeWindowOffset,
    scrollMargin: 0,
    initialRect: { width: window.innerWidth, height: window.innerHeight },
    onChange: () => paint(),
  };
  const v = new Virtualizer<Window, HTMLElement>(options);
  const rows = new Map<number, HTMLElement>();
  function paint(): void {
    spacer.style.height = `${v.getTotalSize()}px`;
    const items = v.getVirtualItems();
    const keep = new Set(items.map((i) => i.index));
    for (const [i, el] of rows) {
      if (!keep.has(i)) {
        el.remove();
        rows.delete(i);
      }
    }
    for (const item of items) {
      let el = rows.get(item.index);
      if (el === undefined) {
        el = row(index.suite, shown[item.index]!);
        rows.set(item.index, el);
        list.append(el);
      }
      el.style.transform = `translateY(${item.start - v.options.scrollMargin}px)`;
      el.style.height = `${item.size}px`;
    }
  }
  function refresh(): void {
    const q = state.q.trim().toLowerCase();
    const keep = FILTERS[state.f]!.keep;
    shown = index.benchmarks.filter(
      (b) => keep(b) && (q === '' || b.name.toLowerCase().includes(q)),
    );
    const compare = SORTS[state.sort]!.compare;
    if (compare !== undefined) shown = [...shown].sort(compare);
    count.textContent = `${shown.length} of ${index.benchmarks.length}`;
    for (const el of rows.values()) el.remove();
    rows.clear();
    options.count = shown.length;
    options.scrollMargin = list.getBoundingClientRect().top + window.scrollY;
    v.setOptions(options);
    v._willUpdate();
    paint();
  }
  const unmount = v._didMount();
  refresh();
  const onResize = (): void => refresh();
  window.addEventListener('resize', onResize);
  return {
    refresh,
    dispose: () => {
      unmount();
      window.removeEventListener('resize', onResize);
    },
  };
}

function row(suite: string, b: IndexBenchmark): HTMLElement {
  // A recent regression or improvement matters more than the newest "unchanged".
  const shown = b.called ?? b.last;
  const verdict = verdictName(shown?.k);
  const latest =
    b.latest.error !== null
      ? h('span', { class: 'error', title: b.latest.error }, 'failed')
      : b.latest.v === null
        ? '–'
        : [
            formatValue(b.latest.v, b.unit),
            b.latest.lo === null || b.latest.hi === null
              ? null
              : h(
                  'small',
                  { class: 'muted' },
                  ` [${formatValue(b.latest.lo)}, ${formatValue(b.latest.hi)}]`,
                ),
          ];
  return h(
    'a',
    { class: 'row', role: 'listitem', href: benchmarkHref(suite, b.name) },
    h('span', { class: 'name', title: b.name }, b.name),
    h('span', { class: 'value' }, latest),
    h(
      'span',
      { class: 'change' },
      shown === null
        ? h('span', { class: 'muted' }, 'no comparison')
        : [
            badge(verdict),
            ` ${formatPercent(shown.c)} `,
            h('small', { class: 'muted' }, formatInterval(shown.cl, shown.ch)),
            b.called === null || b.called.ago === 0
              ? null
              : h(
                  'small',
                  { class: 'muted' },
                  ` ${b.called.ago} run${b.called.ago === 1 ? '' : 's'} ago`,
                ),
          ],
    ),
    h('span', { class: `trend ${verdictName(b.moved.k) ?? ''}` }, sparkline(b.spark)),
  );
}

export function badge(verdict: VerdictName | null): HTMLElement {
  return h('span', { class: `badge ${verdict ?? 'none'}` }, verdict ?? '–');
}

/** Comparisons of the newest runs that were not `unchanged`, newest first. */
function recentTable(index: SuiteIndex): HTMLElement {
  const rows = index.recent.slice(0, 50);
  return h(
    'section',
    { class: 'recent' },
    h('h2', {}, 'Recent changes'),
    rows.length === 0
      ? h(
          'p',
          { class: 'muted' },
          `No regression, improvement or inconclusive comparison in the last ${Math.min(30, index.runs)} runs.`,
        )
      : h(
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
                ['when', 'benchmark', 'change', 'interval', 'verdict', 'commit'].map((c) =>
                  h('th', {}, c),
                ),
              ),
            ),
            h(
              'tbody',
              {},
              rows.map((r) =>
                h(
                  'tr',
                  {},
                  h('td', {}, formatTime(r.t)),
                  h(
                    'td',
                    {},
                    h('a', { href: benchmarkHref(index.suite, r.benchmark) }, r.benchmark),
                  ),
                  h('td', { class: 'num' }, formatPercent(r.c)),
                  h('td', { class: 'num' }, formatInterval(r.cl, r.ch)),
                  h('td', {}, badge(verdictName(r.k))),
                  h('td', {}, r.commit === null ? '–' : h('code', {}, r.commit.slice(0, 7))),
                ),
              ),
            ),
          ),
        ),
  );
}

export type { ViewContext };
