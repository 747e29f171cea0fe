/// <reference lib="dom" />
import type { Route } from '../route.js';

/** What a view is given besides its route: where to draw and how to set the crumbs. */
export interface ViewContext {
  root: HTMLElement;
  /** Sets the location line under the title (suite › benchmark). */
  setCrumbs(crumbs: { label: string; href?: string }[]): void;
  /** The page title. */
  setTitle(title: string): void;
}

/**
 * A view of the dashboard: one file under views/ that calls `registerView`, listed once in
 * views/index.ts. `match` claims a route (returning what it needs from it); `suiteTab` makes
 * it a tab of every suite at `#/s/SUITE/<id>` (e.g. a variability view). `render` may return
 * a function that undoes what it set up (listeners, timers) when the route changes.
 */
export interface View<P = unknown> {
  id: string;
  match(route: Route): P | null;
  render(params: P, ctx: ViewContext): Promise<(() => void) | void>;
  /** Label of the suite tab that opens this view, if it is one. */
  suiteTab?: string;
}

const views: View[] = [];

export function registerView<P>(view: View<P>): void {
  if (views.some((v) => v.id === view.id)) throw new Error(`two dashboard views named ${view.id}`);
  views.push(view as View);
}

/** The first registered view that claims the route. */
export function viewFor(route: Route): { view: View; params: unknown } | null {
  for (const view of views) {
    const params = view.match(route);
    if (params !== null) return { view, params };
  }
  return null;
}

/** Views that are tabs of a suite, in registration order. */
export function suiteTabs(): View[] {
  return views.filter((v) => v.suiteTab !== undefined);
}

/** `#/s/SUITE/<id>`: the route of a suite tab view; the suite's name, or null. */
export function matchSuiteTab(route: Route, id: string): { suite: string } | null {
  const [s, suite, tab, ...rest] = route.parts;
  return s === 's' && suite !== undefined && tab === id && rest.length === 0 ? { suite } : null;
}
