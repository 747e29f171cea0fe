/**
 * The dashboard's routes live in the URL's hash, so every view has a link that works on any
 * static host (GitHub Pages, `python3 -m http.server`):
 *   #/                          every suite
 *   #/s/SUITE?q=TEXT&f=FILTER   a suite's benchmarks (search and filter kept in the link)
 *   #/s/SUITE/b/BENCHMARK       one benchmark over time
 *   #/s/SUITE/VIEW              another view of the suite (views/registry.ts)
 * Names are URI-encoded.
 */
export interface Route {
  /** Path segments after `#/`, decoded. */
  parts: string[];
  query: URLSearchParams;
}

export function parseRoute(hash: string): Route {
  const body = hash.replace(/^#\/?/, '');
  const [path = '', query = ''] = body.split('?', 2) as [string?, string?];
  const parts = path === '' ? [] : path.split('/').map((p) => safeDecode(p));
  return { parts, query: new URLSearchParams(query) };
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

export function suiteHref(suite: string, query?: Record<string, string>): string {
  const q =
    query === undefined
      ? ''
      : new URLSearchParams(Object.entries(query).filter(([, v]) => v !== '')).toString();
  return `#/s/${encodeURIComponent(suite)}${q === '' ? '' : `?${q}`}`;
}

export function benchmarkHref(suite: string, benchmark: string): string {
  return `#/s/${encodeURIComponent(suite)}/b/${encodeURIComponent(benchmark)}`;
}

export function viewHref(suite: string, view: string): string {
  return `#/s/${encodeURIComponent(suite)}/${encodeURIComponent(view)}`;
}
