// Ground truth for persistent-protocol routes (benchmarks/fidelity): started pinned to one
// CPU (taskset), it starts every server given on that CPU too, then drives them one `go` at a
// time, in a random order per round, so each iteration runs alone. It records the program's
// own value (clock "self") or the round trip it times itself (clock "round-trip": this client
// waits on the same CPU the server runs on, so it is woken at once when the answer comes).
// Usage: node protocol-client.mjs SPEC_JSON, SPEC = {servers: [{argv, env}], rounds, clock, seed}
// Prints {"values": [[...], [...]]}, one list per server.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const spec = JSON.parse(process.argv[2]);
let seed = spec.seed >>> 0 || 1;
const random = () => {
  seed ^= seed << 13;
  seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  seed >>>= 0;
  return seed / 2 ** 32;
};

const servers = spec.servers.map(({ argv, env }) => {
  const child = spawn(argv[0], argv.slice(1), {
    env: { ...process.env, ...env, DUETKIT_PROTOCOL: '1' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const queue = [];
  const waiting = [];
  lines.on('line', (line) => {
    if (!line.startsWith('{')) return;
    if (waiting.length > 0) waiting.shift()(line);
    else queue.push(line);
  });
  const next = () =>
    queue.length > 0 ? Promise.resolve(queue.shift()) : new Promise((r) => waiting.push(r));
  return { child, next };
});

for (const s of servers) await s.next(); // {"ready": true}
const values = servers.map(() => []);
for (let round = 0; round < spec.rounds; round++) {
  const order = servers.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  for (const i of order) {
    const t0 = process.hrtime.bigint();
    servers[i].child.stdin.write('go\n');
    const line = await servers[i].next();
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    const reply = JSON.parse(line);
    if (reply.error) throw new Error(reply.error);
    values[i].push(spec.clock === 'self' ? reply.results[0].value : ms);
  }
}
for (const s of servers) s.child.stdin.end('exit\n');
process.stdout.write(`${JSON.stringify({ values })}\n`);
