import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadOpenApi, type Operation } from './openapi.js';

/** One request as the fake API saw it. */
export interface RecordedRequest {
  method: string;
  path: string;
  operationId: string | null;
  query: Record<string, string>;
  body: unknown;
  status: number;
  /** Why it does not match GitHub's OpenAPI description; [] when it does. */
  problems: string[];
}

export interface FakeGitHubOptions {
  /** Answer writes (POST/PATCH/PUT/DELETE) with 403, like a fork PR's read-only token. */
  readOnly?: boolean;
  /** Head commit of each PR, for `pulls/get`. */
  pullHeads?: Record<number, string>;
}

export interface FakeIssue {
  title: string;
  body: string;
  state: 'open' | 'closed';
  labels: string[];
}

export interface FakeGitHub {
  url: string;
  requests: RecordedRequest[];
  /** Every comment posted, by id: the state a second run finds. */
  comments: Map<number, { issue: number; body: string }>;
  /** Every issue opened, by number (the variability alert's issues). */
  issues: Map<number, FakeIssue>;
  options: FakeGitHubOptions;
  /** Every problem of every request (and of our own responses), for one assertion. */
  problems(): string[];
  close(): Promise<void>;
}

/**
 * A GitHub REST API on 127.0.0.1 for the operations the action uses (issue comments, pulls).
 * Each request is matched to an operation of GitHub's published OpenAPI description and its
 * path parameters, query parameters and JSON body are validated against it; bodies are the
 * description's own examples with the real state laid over, and are validated too.
 */
export async function startFakeGitHub(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const api = loadOpenApi();
  const requests: RecordedRequest[] = [];
  const comments = new Map<number, { issue: number; body: string }>();
  const issues = new Map<number, FakeIssue>();
  let nextId = 1000;
  let nextIssue = 1;
  const server = createServer((req, res) => {
    void handle(req, res);
  });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const text = await readBody(req);
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      operationId: null,
      query: Object.fromEntries(url.searchParams),
      body: null,
      status: 0,
      problems: [],
    };
    requests.push(record);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
      record.status = status;
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(body));
    };
    const op = api.find(record.method, url.pathname);
    if (op === null) {
      record.problems.push(
        `no operation ${record.method} ${url.pathname} in the OpenAPI description`,
      );
      return send(404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });
    }
    record.operationId = op.operationId;
    if (!/^(token|Bearer) \S+$/.test(req.headers.authorization ?? '')) {
      record.problems.push('no Authorization: token header');
    }
    if (text !== '') {
      try {
        record.body = JSON.parse(text);
      } catch {
        record.problems.push('request body is not JSON');
      }
    }
    record.problems.push(...checkRequest(op, record));
    if (record.problems.length > 0) return send(422, { message: record.problems.join('; ') });
    if (options.readOnly === true && record.method !== 'GET') {
      return send(403, {
        message: 'Resource not accessible by integration',
        documentation_url: 'https://docs.github.com/rest/issues/comments#create-an-issue-comment',
        status: '403',
      });
    }
    const [status, body, headers] = respond(op, record);
    const schema =
      (
        op.responses[String(status)] as {
          content?: Record<string, { schema: Record<string, unknown> }>;
        }
      )?.content?.['application/json']?.schema ?? null;
    if (schema !== null) {
      record.problems.push(...api.check(schema, body).map((p) => `our response: ${p}`));
    }
    send(status, body, headers);
  }

  function checkRequest(op: Operation, record: RecordedRequest): string[] {
    const problems: string[] = [];
    for (const param of op.parameters) {
      const raw =
        param.in === 'path'
          ? op.pathParams[param.name]
          : param.in === 'query'
            ? record.query[param.name]
            : undefined;
      if (param.in !== 'path' && param.in !== 'query') continue;
      if (raw === undefined) {
        if (param.required === true) problems.push(`missing ${param.in} parameter ${param.name}`);
        continue;
      }
      const value = ['integer', 'number'].includes(String(param.schema.type)) ? Number(raw) : raw;
      problems.push(
        ...api.check(param.schema, value).map((p) => `${param.in} ${param.name}: ${p}`),
      );
    }
    const declared = new Set(op.parameters.filter((p) => p.in === 'query').map((p) => p.name));
    for (const name of Object.keys(record.query)) {
      if (!declared.has(name)) problems.push(`undeclared query parameter ${name}`);
    }
    if (op.requestSchema !== null) {
      problems.push(...api.check(op.requestSchema, record.body).map((p) => `body ${p}`));
    } else if (record.body !== null) problems.push('a body where the operation takes none');
    return problems;
  }

  function respond(
    op: Operation,
    record: RecordedRequest,
  ): [number, unknown, Record<string, string>] {
    const p = op.pathParams;
    const base = `http://127.0.0.1:${port()}`;
    const asComment = (id: number): Record<string, unknown> => {
      const c = comments.get(id)!;
      // The description's example of an issue comment (issues/get-comment), with our state.
      const one = api.example(api.find('GET', '/repos/o/r/issues/comments/1')!, '200');
      return {
        ...one,
        id,
        node_id: `IC_${id}`,
        body: c.body,
        url: `${base}/repos/${p.owner}/${p.repo}/issues/comments/${id}`,
        html_url: `https://github.test/${p.owner}/${p.repo}/pull/${c.issue}#issuecomment-${id}`,
        issue_url: `${base}/repos/${p.owner}/${p.repo}/issues/${c.issue}`,
      };
    };
    const asIssue = (n: number): Record<string, unknown> => {
      const i = issues.get(n)!;
      // The description's example of an issue (the first of issues/list-for-repo's; the one
      // of issues/get is a bare $ref), with our state; not a pull request.
      const listed = api.example(api.find('GET', '/repos/o/r/issues')!, '200');
      const { pull_request: _pr, ...one } = (listed as unknown as Record<string, unknown>[])[0]!;
      const label = (one.labels as Record<string, unknown>[])[0]!;
      return {
        ...one,
        number: n,
        id: 5000 + n,
        node_id: `I_${n}`,
        title: i.title,
        body: i.body,
        state: i.state,
        labels: i.labels.map((name, k) => ({ ...label, id: k + 1, name })),
        url: `${base}/repos/${p.owner}/${p.repo}/issues/${n}`,
        html_url: `https://github.test/${p.owner}/${p.repo}/issues/${n}`,
      };
    };
    switch (op.operationId) {
      case 'issues/list-comments': {
        const issue = Number(p.issue_number);
        const all = [...comments.entries()]
          .filter(([, c]) => c.issue === issue)
          .map(([id]) => asComment(id));
        const perPage = Number(record.query.per_page ?? 30);
        const page = Number(record.query.page ?? 1);
        const slice = all.slice((page - 1) * perPage, page * perPage);
        const headers: Record<string, string> = {};
        if (page * perPage < all.length) {
          headers.link = `<${base}${record.path}?per_page=${perPage}&page=${page + 1}>; rel="next"`;
        }
        return [200, slice, headers];
      }
      case 'issues/create-comment': {
        const id = nextId++;
        comments.set(id, {
          issue: Number(p.issue_number),
          body: (record.body as { body: string }).body,
        });
        return [
          201,
          asComment(id),
          { location: `${base}/repos/${p.owner}/${p.repo}/issues/comments/${id}` },
        ];
      }
      case 'issues/update-comment': {
        const id = Number(p.comment_id);
        const existing = comments.get(id);
        if (existing === undefined) return [404, { message: 'Not Found' }, {}];
        existing.body = (record.body as { body: string }).body;
        return [200, asComment(id), {}];
      }
      case 'issues/list-for-repo': {
        const labels = (record.query.labels ?? '').split(',').filter(Boolean);
        const state = record.query.state ?? 'open';
        const all = [...issues.entries()]
          .filter(([, i]) => state === 'all' || i.state === state)
          .filter(([, i]) => labels.every((l) => i.labels.includes(l)))
          .map(([n]) => asIssue(n));
        const perPage = Number(record.query.per_page ?? 30);
        const page = Number(record.query.page ?? 1);
        const headers: Record<string, string> = {};
        if (page * perPage < all.length) {
          headers.link = `<${base}${record.path}?labels=${labels.join(',')}&state=${state}&per_page=${perPage}&page=${page + 1}>; rel="next"`;
        }
        return [200, all.slice((page - 1) * perPage, page * perPage), headers];
      }
      case 'issues/create': {
        const b = record.body as {
          title: string;
          body?: string;
          labels?: (string | { name: string })[];
        };
        const n = nextIssue++;
        issues.set(n, {
          title: b.title,
          body: b.body ?? '',
          state: 'open',
          labels: (b.labels ?? []).map((l) => (typeof l === 'string' ? l : l.name)),
        });
        return [201, asIssue(n), { location: `${base}/repos/${p.owner}/${p.repo}/issues/${n}` }];
      }
      case 'issues/update': {
        const n = Number(p.issue_number);
        const existing = issues.get(n);
        if (existing === undefined) return [404, { message: 'Not Found' }, {}];
        const b = record.body as { body?: string; state?: 'open' | 'closed'; title?: string };
        if (b.body !== undefined) existing.body = b.body;
        if (b.state !== undefined) existing.state = b.state;
        if (b.title !== undefined) existing.title = b.title;
        return [200, asIssue(n), {}];
      }
      case 'pulls/get': {
        const pr = api.example(op, '200');
        const sha = options.pullHeads?.[Number(p.pull_number)];
        if (sha === undefined) return [404, { message: 'Not Found' }, {}];
        // GitHub's own example lists a requested team without the "type" its schema requires.
        const body = {
          ...pr,
          number: Number(p.pull_number),
          head: { ...(pr.head as object), sha },
        };
        return [200, { ...body, requested_teams: [] }, {}];
      }
      default:
        record.problems.push(`the fake does not implement ${op.operationId}`);
        return [501, { message: `not implemented: ${op.operationId}` }, {}];
    }
  }

  const port = (): number => (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port()}`,
    requests,
    comments,
    issues,
    options,
    problems: () => requests.flatMap((r) => r.problems.map((p) => `${r.method} ${r.path}: ${p}`)),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
