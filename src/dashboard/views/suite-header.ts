/// <reference lib="dom" />
import type { SuiteIndex } from '../data.js';
import { h } from '../dom.js';
import { formatTime } from '../format.js';
import { suiteHref, viewHref } from '../route.js';
import type { View, ViewContext } from './registry.js';

/** The suite's title, what the history holds, and its tabs (the list, then registered views). */
export function suiteHeader(
  index: SuiteIndex,
  current: string,
  tabs: readonly View[],
): HTMLElement {
  const latest = index.latestRun;
  const commit = latest?.commit;
  return h(
    'section',
    { class: 'suite-head' },
    h('h1', {}, index.suite),
    h(
      'p',
      { class: 'muted' },
      `${index.benchmarks.length} benchmarks · ${index.runs} runs`,
      index.first === null || index.last === null
        ? ''
        : ` · ${formatTime(index.first)} – ${formatTime(index.last)} UTC`,
      commit == null
        ? ''
        : [
            ' · latest ',
            commit.url === null
              ? h('code', {}, commit.id.slice(0, 7))
              : h('a', { href: commit.url }, h('code', {}, commit.id.slice(0, 7))),
            ` ${commit.message}`,
          ],
    ),
    tabs.length === 0
      ? null
      : h(
          'nav',
          { class: 'tabs', 'aria-label': 'Views of the suite' },
          h(
            'a',
            { href: suiteHref(index.suite), class: current === 'suite' ? 'active' : '' },
            'Benchmarks',
          ),
          tabs.map((t) =>
            h(
              'a',
              { href: viewHref(index.suite, t.id), class: current === t.id ? 'active' : '' },
              t.suiteTab!,
            ),
          ),
        ),
  );
}

export function notFound(ctx: ViewContext, message: string): void {
  ctx.setTitle('Not found · duetkit');
  ctx.root.replaceChildren(
    h('h1', {}, 'Not found'),
    h('p', {}, message),
    h('p', {}, h('a', { href: '#/' }, 'All suites')),
  );
}
