/// <reference lib="dom" />
import { h } from '../dom.js';
import { loadSuites } from '../data.js';
import { formatTime } from '../format.js';
import { suiteHref } from '../route.js';
import { registerView } from './registry.js';

/** `#/`: every suite; with only one, straight to it. */
registerView({
  id: 'suites',
  match: (route) => (route.parts.length === 0 ? {} : null),
  async render(_params, ctx) {
    const { suites } = await loadSuites();
    if (suites.length === 1) {
      location.replace(suiteHref(suites[0]!.name));
      return;
    }
    ctx.setTitle('duetkit benchmarks');
    ctx.setCrumbs([]);
    ctx.root.replaceChildren(
      h('h1', {}, 'Benchmark suites'),
      suites.length === 0
        ? h('p', { class: 'muted' }, 'No runs have been published yet.')
        : h(
            'ul',
            { class: 'suites' },
            suites.map((s) =>
              h(
                'li',
                {},
                h('a', { href: suiteHref(s.name) }, s.name),
                h(
                  'span',
                  { class: 'muted' },
                  ` ${s.benchmarks} benchmarks · ${s.runs} runs · last ${formatTime(s.last)}`,
                ),
              ),
            ),
          ),
    );
  },
});
