import { PassThrough, Readable, Writable } from 'node:stream';
import {
  ApiException,
  BatchV1Api,
  CoreV1Api,
  Exec,
  type KubeConfig,
  type V1Job,
  type V1Namespace,
  type V1Node,
  type V1Pod,
  type V1Status,
} from '@kubernetes/client-node';

/** What duetkit does with a cluster's API: small on purpose, so tests see every call. */
export interface Kube {
  /** The API server's URL, for messages. */
  readonly server: string;
  createNamespace(body: V1Namespace): Promise<void>;
  /** Deletes the namespace and everything in it; resolves once the API accepted it. */
  deleteNamespace(name: string): Promise<'deleted' | 'absent'>;
  /** True while the namespace exists (`terminating` too: also while it is being deleted). */
  namespaceExists(name: string, terminating?: boolean): Promise<boolean>;
  createJob(namespace: string, body: V1Job): Promise<void>;
  readJob(namespace: string, name: string): Promise<V1Job | null>;
  listPods(namespace: string, labelSelector: string): Promise<V1Pod[]>;
  readNode(name: string): Promise<V1Node>;
  listNodes(): Promise<V1Node[]>;
  /** Warning events of an object, newest last, as "Reason: message". */
  warnings(namespace: string, name: string): Promise<string[]>;
  /** The container's log (the last `tailLines`). */
  log(namespace: string, pod: string, container: string, tailLines?: number): Promise<string>;
  /** Runs a command in a container, with `stdin` streamed in; resolves with its exit code. */
  exec(
    namespace: string,
    pod: string,
    container: string,
    command: string[],
    stdin?: Readable | Buffer,
  ): Promise<ExecResult>;
}

export interface ExecResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

/** The Kubernetes API through @kubernetes/client-node. */
export function createKube(config: KubeConfig): Kube {
  const core = config.makeApiClient(CoreV1Api);
  const batch = config.makeApiClient(BatchV1Api);
  const server = config.getCurrentCluster()?.server ?? '(no server)';
  const absentOn404 = async <T>(work: () => Promise<T>): Promise<T | null> => {
    try {
      return await work();
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
  };
  return {
    server,
    async createNamespace(body) {
      await core.createNamespace({ body });
    },
    async deleteNamespace(name) {
      const done = await absentOn404(() =>
        core.deleteNamespace({ name, propagationPolicy: 'Background' }),
      );
      return done === null ? 'absent' : 'deleted';
    },
    async namespaceExists(name, terminating = false) {
      const found = await absentOn404(() => core.readNamespace({ name }));
      if (found === null) return false;
      return terminating || found.metadata?.deletionTimestamp === undefined;
    },
    async createJob(namespace, body) {
      await batch.createNamespacedJob({ namespace, body });
    },
    readJob: (namespace, name) => absentOn404(() => batch.readNamespacedJob({ namespace, name })),
    async listPods(namespace, labelSelector) {
      return (await core.listNamespacedPod({ namespace, labelSelector })).items;
    },
    readNode: (name) => core.readNode({ name }),
    async listNodes() {
      return (await core.listNode()).items;
    },
    async warnings(namespace, name) {
      const events = await core.listNamespacedEvent({
        namespace,
        fieldSelector: `involvedObject.name=${name}`,
      });
      return events.items
        .filter((e) => e.type === 'Warning')
        .sort((a, b) => time(a.lastTimestamp ?? a.eventTime) - time(b.lastTimestamp ?? b.eventTime))
        .map((e) => `${e.reason ?? 'Warning'}: ${e.message ?? ''}`.trim());
    },
    async log(namespace, pod, container, tailLines) {
      return core.readNamespacedPodLog({ namespace, name: pod, container, tailLines });
    },
    exec: (namespace, pod, container, command, stdin) =>
      execIn(new Exec(config), { namespace, pod, container, command, stdin }),
  };
}

function time(t: Date | string | undefined): number {
  return t === undefined ? 0 : new Date(t).getTime();
}

/**
 * One exec, waited for to the end: the status frame carries the exit code. The v5 streaming
 * protocol (Kubernetes ≥ 1.29) closes stdin without closing the connection, so a command that
 * reads stdin to its end (tar -x) sees EOF and still reports how it exited.
 */
function execIn(
  exec: Exec,
  call: {
    namespace: string;
    pod: string;
    container: string;
    command: string[];
    stdin: Readable | Buffer | undefined;
  },
): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const sink = (chunks: Buffer[]): Writable =>
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          chunks.push(chunk);
          done();
        },
      });
    let status: V1Status | null = null;
    const stdin =
      call.stdin === undefined
        ? null
        : Buffer.isBuffer(call.stdin)
          ? Readable.from([call.stdin])
          : call.stdin.pipe(new PassThrough());
    exec
      .exec(
        call.namespace,
        call.pod,
        call.container,
        call.command,
        sink(out),
        sink(err),
        stdin,
        false,
        (s) => void (status = s),
      )
      .then((socket) => {
        socket.on('error', reject);
        socket.on('close', () => {
          const stderr = Buffer.concat(err).toString();
          if (status === null) {
            reject(new Error(`exec ${call.command.join(' ')}: the connection closed early`));
            return;
          }
          resolve({ code: exitCode(status), stdout: Buffer.concat(out), stderr });
        });
      }, reject);
  });
}

/** The exit code in an exec's final status (`details.causes[ExitCode]`), 0 on success. */
function exitCode(status: V1Status): number {
  if (status.status === 'Success') return 0;
  const cause = status.details?.causes?.find((c) => c.reason === 'ExitCode');
  const code = Number(cause?.message);
  return Number.isInteger(code) ? code : 1;
}

/** The HTTP status of an API error, or null for a network error (the server unreachable). */
export function statusOf(error: unknown): number | null {
  return error instanceof ApiException ? error.code : null;
}

/**
 * One line for an API error: the server's own message when it sent one (`Status.message`),
 * else the network error (the server could not be reached).
 */
export function describeKubeError(error: unknown): string {
  if (error instanceof ApiException) {
    const body = (typeof error.body === 'string' ? safeJson(error.body) : error.body) as {
      message?: string;
    } | null;
    return `HTTP ${error.code}: ${body?.message ?? String(error.body).slice(0, 300)}`;
  }
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const message = (error as Error).message ?? String(error);
  return cause?.code !== undefined ? `${message} (${cause.code})` : message;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * True when an error means the API server could not be reached: no HTTP answer at all, or a
 * server (or proxy) that says it is unavailable — an API server shutting down answers 503.
 */
export function isUnreachable(error: unknown): boolean {
  return !(error instanceof ApiException) || [502, 503, 504].includes(error.code);
}
