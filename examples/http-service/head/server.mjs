// The http quickstart's example service, "after" version: a small JSON API on $PORT with two
// endpoints. `/search` does about a millisecond of CPU work per request (a fixed number of
// hash rounds), `/items` a tenth of that. this version makes /search do 30% more rounds;
// /items is the same in both. duetkit starts one per replica (docs/services.md).
import http from 'node:http';

/** Hash rounds per request: 30% more for /search than base/server.mjs (300000). */
const SEARCH_ROUNDS = 390000;
const ITEMS_ROUNDS = 30000;

function work(rounds, seed) {
  let h = seed | 0;
  for (let i = 0; i < rounds; i++) h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) + i;
  return h >>> 0;
}

const server = http.createServer((request, response) => {
  const url = new URL(request.url, 'http://localhost');
  let body;
  if (url.pathname === '/healthz') body = { ok: true };
  else if (url.pathname === '/search')
    body = { hits: work(SEARCH_ROUNDS, url.search.length) % 100 };
  else if (url.pathname === '/items') body = { items: [work(ITEMS_ROUNDS, 7) % 10] };
  else {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
