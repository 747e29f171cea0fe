import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fault-injecting HTTP proxy in front of moto (tests/support/moto.ts), for what moto does not
 * do by itself: failing a chosen call (5xx, throttling, AWS error codes, a connection reset, a
 * response later than the client's timeout), and slow phases — a cluster or node group that
 * stays CREATING or DELETING for a number of DescribeX calls, as on AWS, where moto is
 * ACTIVE or gone at once. Every call is logged by operation name, and a hook can hold a call
 * (to kill the client while it is in flight).
 */
export type Fault =
  | { kind: 'status'; status: number; code: string; message?: string }
  | { kind: 'delay'; ms: number }
  /** Forwarded at once, answered `ms` later: the call went through, its answer comes late. */
  | { kind: 'late'; ms: number }
  | { kind: 'reset' };

export interface FaultRule {
  op: string;
  /** The occurrence of that operation to fail (1-based); `every` fails all of them. */
  nth: number | 'every';
  fault: Fault;
}

export interface FaultProxy {
  url: string;
  /** Operation names in the order they arrived (retries included). */
  calls: string[];
  rules: FaultRule[];
  /** Describe calls answered CREATING after a create, and DELETING after a delete. */
  slowPhases: { cluster: number; nodegroup: number };
  /** Awaited before each call is forwarded: `index` counts from 0. */
  onCall: ((index: number, op: string) => Promise<void> | void) | null;
  /** Resolves when no call is in flight (a killed client's last call has reached moto). */
  idle(): Promise<void>;
  /** Forgets the calls, rules, phases and per-operation counts (`nth` counts from here). */
  reset(): void;
  close(): Promise<void>;
}

/** The AWS operation of a request: EKS by method and path, EC2 by its Action. */
export function operationOf(method: string, url: string, body: string): string {
  const action = /(?:^|&)Action=([A-Za-z]+)/.exec(body)?.[1];
  if (action !== undefined) return action;
  const p = url.split('?')[0]!.split('/').filter(Boolean);
  if (p[0] === 'tags')
    return method === 'GET'
      ? 'ListTagsForResource'
      : method === 'DELETE'
        ? 'UntagResource'
        : 'TagResource';
  if (p[0] !== 'clusters') return `${method} ${url}`;
  if (p.length === 1) return method === 'POST' ? 'CreateCluster' : 'ListClusters';
  if (p.length === 2) return method === 'DELETE' ? 'DeleteCluster' : 'DescribeCluster';
  if (p[2] === 'node-groups' && p.length === 3)
    return method === 'POST' ? 'CreateNodegroup' : 'ListNodegroups';
  if (p[2] === 'node-groups' && p.length === 4)
    return method === 'DELETE' ? 'DeleteNodegroup' : 'DescribeNodegroup';
  return `${method} ${url}`;
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const counts = new Map<string, number>();
  // name → describes left to answer with the slow status, and the body to rewrite.
  const phases = new Map<
    string,
    { creatingLeft: number; deletingLeft: number; body: string | null }
  >();
  const proxy: FaultProxy = {
    url: '',
    calls: [],
    rules: [],
    slowPhases: { cluster: 0, nodegroup: 0 },
    onCall: null,
    reset: () => {
      proxy.calls.length = 0;
      proxy.rules = [];
      proxy.slowPhases = { cluster: 0, nodegroup: 0 };
      proxy.onCall = null;
      counts.clear();
      phases.clear();
    },
    idle: async () => {
      while (inFlight > 0) await new Promise((r) => setTimeout(r, 10));
    },
    close: async () => undefined,
  };
  let inFlight = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      inFlight++;
      void handle(req, res, Buffer.concat(chunks))
        .catch(() => {
          res.destroy();
        })
        .finally(() => inFlight--);
    });
  });
  async function handle(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    body: Buffer,
  ): Promise<void> {
    const op = operationOf(req.method!, req.url!, body.toString());
    const index = proxy.calls.length;
    proxy.calls.push(op);
    const n = (counts.get(op) ?? 0) + 1;
    counts.set(op, n);
    await proxy.onCall?.(index, op);
    const rule = proxy.rules.find((r) => r.op === op && (r.nth === 'every' || r.nth === n));
    if (rule?.fault.kind === 'reset') {
      req.socket.destroy();
      return;
    }
    if (rule?.fault.kind === 'delay')
      await new Promise((r) => setTimeout(r, (rule.fault as { ms: number }).ms));
    if (rule?.fault.kind === 'status') {
      sendError(res, op, rule.fault);
      return;
    }
    const key = resourceKey(req.url!);
    const describe = op === 'DescribeCluster' || op === 'DescribeNodegroup';
    const phase = key === null ? undefined : phases.get(key);
    if (describe && phase !== undefined && phase.deletingLeft > 0 && phase.body !== null) {
      phase.deletingLeft--;
      send(res, 200, { 'content-type': 'application/json' }, withStatus(phase.body, 'DELETING'));
      return;
    }
    const upstream = await forward(target, req, body);
    if (rule?.fault.kind === 'late')
      await new Promise((r) => setTimeout(r, (rule.fault as { ms: number }).ms));
    let payload = upstream.body;
    if (upstream.status < 300 && key !== null) {
      const slow = op.endsWith('Cluster') ? proxy.slowPhases.cluster : proxy.slowPhases.nodegroup;
      if (describe) {
        const known = phases.get(key) ?? { creatingLeft: 0, deletingLeft: 0, body: null };
        phases.set(key, known);
        known.body = payload.toString();
        if (known.creatingLeft > 0) {
          known.creatingLeft--;
          payload = Buffer.from(withStatus(payload.toString(), 'CREATING'));
        }
      } else if ((op === 'DeleteCluster' || op === 'DeleteNodegroup') && slow > 0) {
        const known = phases.get(key) ?? { creatingLeft: 0, deletingLeft: 0, body: null };
        phases.set(key, known);
        known.creatingLeft = 0;
        known.deletingLeft = slow;
        known.body = withStatus(payload.toString(), 'DELETING');
      }
    }
    if (upstream.status < 300 && (op === 'CreateCluster' || op === 'CreateNodegroup')) {
      const created = createdKey(op, req.url!, body.toString());
      const slow = op === 'CreateCluster' ? proxy.slowPhases.cluster : proxy.slowPhases.nodegroup;
      if (created !== null && slow > 0)
        phases.set(created, { creatingLeft: slow, deletingLeft: 0, body: null });
    }
    send(res, upstream.status, upstream.headers, payload);
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}

/** `clusters/NAME` or `clusters/NAME/node-groups/GROUP` of a request path. */
function resourceKey(url: string): string | null {
  const p = url.split('?')[0]!.split('/').filter(Boolean);
  if (p[0] !== 'clusters' || p.length < 2) return null;
  if (p.length === 2) return `clusters/${p[1]}`;
  if (p.length === 4 && p[2] === 'node-groups') return `clusters/${p[1]}/node-groups/${p[3]}`;
  return null;
}

function createdKey(op: string, url: string, body: string): string | null {
  try {
    const json = JSON.parse(body) as { name?: string; nodegroupName?: string };
    if (op === 'CreateCluster') return `clusters/${json.name}`;
    const cluster = url.split('/').filter(Boolean)[1];
    return `clusters/${cluster}/node-groups/${json.nodegroupName}`;
  } catch {
    return null;
  }
}

function withStatus(body: string, status: string): string {
  const json = JSON.parse(body) as {
    cluster?: { status?: string };
    nodegroup?: { status?: string };
  };
  if (json.cluster !== undefined) json.cluster.status = status;
  if (json.nodegroup !== undefined) json.nodegroup.status = status;
  return JSON.stringify(json);
}

function sendError(
  res: http.ServerResponse,
  op: string,
  fault: { status: number; code: string; message?: string },
): void {
  const message = fault.message ?? `injected ${fault.code} for ${op}`;
  if (
    /^[A-Z][A-Za-z]+$/.test(op) &&
    !op.includes('Cluster') &&
    !op.includes('Nodegroup') &&
    !op.includes('Tag')
  ) {
    // EC2's query protocol answers errors in XML.
    send(
      res,
      fault.status,
      { 'content-type': 'text/xml' },
      `<?xml version="1.0" encoding="UTF-8"?><Response><Errors><Error><Code>${fault.code}</Code><Message>${message}</Message></Error></Errors><RequestID>duetkit-fault</RequestID></Response>`,
    );
    return;
  }
  send(
    res,
    fault.status,
    { 'content-type': 'application/json', 'x-amzn-errortype': fault.code },
    JSON.stringify({ message }),
  );
}

function send(
  res: http.ServerResponse,
  status: number,
  headers: http.OutgoingHttpHeaders,
  body: string | Buffer,
): void {
  const { 'content-length': _length, 'transfer-encoding': _te, connection: _c, ...rest } = headers;
  res.writeHead(status, { ...rest, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function forward(
  target: string,
  req: http.IncomingMessage,
  body: Buffer,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const url = new URL(req.url!, target);
    const upstream = http.request(
      url,
      { method: req.method, headers: { ...req.headers, host: url.host } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (c: Buffer) => chunks.push(c));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 502,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    upstream.on('error', reject);
    upstream.end(body);
  });
}
