// The accuracy benchmark's service (benchmarks/http/accuracy.ts): /a and /b each do a fixed
// number of hash rounds of CPU work per request (A_ROUNDS, B_ROUNDS), /healthz for readiness.
// A +5% change of /a's service time is A_ROUNDS × 1.05 in the head version.
import http from 'node:http';

const rounds = {
  '/a': Number(process.env.A_ROUNDS ?? 300000),
  '/b': Number(process.env.B_ROUNDS ?? 300000),
};

function work(n) {
  let h = 1;
  for (let i = 0; i < n; i++) h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) + i;
  return h >>> 0;
}

http
  .createServer((request, response) => {
    const n = rounds[request.url];
    if (request.url === '/healthz') response.end('ok');
    else if (n === undefined) response.writeHead(404).end();
    else response.end(String(work(n) % 10));
  })
  .listen(Number(process.env.PORT), '127.0.0.1');
