/// <reference lib="dom" />
import { DataError } from './data.js';
import { append, h } from './dom.js';
import { parseRoute } from './route.js';
import './views/index.js';
import { viewFor, type ViewContext } from './views/registry.js';

/**
 * The dashboard: a static page that reads the history's derived JSON files beside it and
 * draws the view the URL's hash names. Nothing comes from another origin.
 */
const root = document.getElementById('app')!;
const crumbs = document.getElementById('crumbs')!;
let dispose: (() => void) | void = undefined;
let generation = 0;

const ctx: ViewContext = {
  root,
  setCrumbs(list) {
    crumbs.replaceChildren();
    list.forEach((c, i) => {
      if (i > 0) append(crumbs, [' › ']);
      append(crumbs, [
        c.href === undefined ? h('span', {}, c.label) : h('a', { href: c.href }, c.label),
      ]);
    });
  },
  setTitle(title) {
    document.title = title;
  },
};

async function show(): Promise<void> {
  const mine = ++generation;
  if (typeof dispose === 'function') dispose();
  dispose = undefined;
  const route = parseRoute(location.hash);
  const found = viewFor(route);
  if (found === null) {
    ctx.setCrumbs([]);
    root.replaceChildren(
      h('h1', {}, 'Not found'),
      h('p', {}, h('a', { href: '#/' }, 'All suites')),
    );
    return;
  }
  try {
    const cleanup = await found.view.render(found.params, ctx);
    if (mine !== generation) {
      if (typeof cleanup === 'function') cleanup();
      return;
    }
    dispose = cleanup;
    document.body.dataset.view = found.view.id;
    document.body.dataset.ready = String(mine);
  } catch (error) {
    if (mine !== generation) return;
    const why =
      error instanceof DataError
        ? `The history's data could not be loaded (${error.message}).`
        : String(error);
    root.replaceChildren(h('h1', {}, 'Something went wrong'), h('p', { class: 'error' }, why));
    throw error;
  }
}

window.addEventListener('hashchange', () => {
  const route = parseRoute(location.hash);
  // Changing the search box rewrites the query with replaceState (no hashchange); a real
  // navigation scrolls to the top.
  if (route.parts.length > 0 || location.hash === '' || location.hash === '#/')
    window.scrollTo(0, 0);
  void show();
});
void show();
