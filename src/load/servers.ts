import { accessSync, constants } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import type { Placement } from '../isolation/types.js';
import { formatArgv } from '../scenario/argv.js';
import type { ServerSpec } from '../scenario/service-schema.js';
import { lastLines, RunError } from '../process/errors.js';
import { startGated, type GatedProcess } from '../process/gated-process.js';
import { isAlive, processTree, signalAll } from '../process/process-tree.js';

/** How often readiness is probed, ms. */
const PROBE_EVERY_MS = 25;

/** One running replica of a version's server. */
export interface Replica {
  version: string;
  index: number;
  port: number;
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  argv: string[];
  process: GatedProcess;
  /** The end of what it printed (stdout and stderr, interleaved as they came). */
  output(): string;
}

/** A version's replicas, started, ready and placed in one CPU slot. */
export interface ServerSet {
  readonly version: string;
  readonly replicas: readonly Replica[];
  /** Moves every process of every replica (the whole trees) into another slot. */
  move(placement: Placement): Promise<void>;
  /** Throws a RunError naming the replica when one has exited. */
  checkAlive(): Promise<void>;
  /** SIGTERM to every process of every replica, SIGKILL after `stopTimeout`; resolves when all are gone. */
  stop(): Promise<void>;
  /** SIGKILL to everything now (interruption). */
  kill(): void;
}

export interface StartOptions {
  version: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  placement: Placement;
  signal?: AbortSignal;
}

/** "server head replica 1 (node server.js, port 41234)": how messages name a replica. */
export function replicaName(r: Pick<Replica, 'version' | 'index' | 'argv' | 'port'>): string {
  return `server ${r.version} replica ${r.index} (${formatArgv(r.argv)}, port ${r.port})`;
}

/**
 * Starts a version's replicas in its directory and slot, each on its own port (`$PORT`: a free
 * one, or the fixed `server.ports`), and waits until each passes its readiness probe. A
 * replica that exits or never becomes ready is an error quoting its output; whatever was
 * started is stopped again before the error is thrown.
 */
export async function startServers(spec: ServerSpec, options: StartOptions): Promise<ServerSet> {
  const fixed = spec.ports?.[options.version];
  checkCommand(spec.command[0]!, options.cwd, options.env);
  const replicas: Replica[] = [];
  const set = serverSet(options.version, replicas, spec);
  try {
    for (let index = 0; index < spec.replicas; index++) {
      const port =
        fixed === undefined
          ? await freePort(spec.host)
          : await checkPortFree(spec.host, fixed[index]!, options.version, index);
      const argv = spec.command.map((word) => substitute(word, port, index));
      const env = {
        ...options.env,
        ...spec.env,
        PORT: String(port),
        DUETKIT_REPLICA: String(index),
        DUETKIT_VERSION: options.version,
      };
      const name = replicaName({ version: options.version, index, argv, port });
      let process_: GatedProcess;
      try {
        process_ = await startGated(argv, {
          cwd: options.cwd,
          env,
          placement: options.placement,
          flag: '/', // released at once: the gate only holds it until it is in its slot
          stdin: 'ignore',
          tailStdout: true,
        });
      } catch (error) {
        throw new RunError(`${name} could not be started: ${(error as Error).message}`);
      }
      let printed = '';
      for (const stream of [process_.child.stdout, process_.child.stderr]) {
        stream?.on('data', (chunk: string) => (printed = (printed + chunk).slice(-16384)));
      }
      const host = spec.host.replace(/^\[|\]$/g, '');
      const replica: Replica = {
        version: options.version,
        index,
        port,
        origin: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
        argv,
        process: process_,
        output: () => printed,
      };
      replicas.push(replica);
      await process_.prime().catch(() => undefined); // an early exit is reported below
    }
    await Promise.all(replicas.map((r) => waitReady(r, spec, options.signal)));
  } catch (error) {
    await set.stop();
    throw error;
  }
  return set;
}

function serverSet(version: string, replicas: Replica[], spec: ServerSpec): ServerSet {
  const trees = (): number[] => replicas.flatMap((r) => processTree(r.process.pid));
  let stopping: Promise<void> | null = null;
  return {
    version,
    replicas,
    async move(placement) {
      for (const pid of trees()) {
        // A process that ended meanwhile has nothing left to move.
        await placement.move(pid).catch((error: Error) => {
          if (isAlive(pid)) throw error;
        });
      }
    },
    async checkAlive() {
      for (const r of replicas) {
        if (r.process.child.exitCode === null && r.process.child.signalCode === null) continue;
        throw await exitedError(r, 'exited during the run');
      }
    },
    stop() {
      stopping ??= (async () => {
        const pids = trees();
        const groups = replicas.map((r) => r.process.pid);
        for (const g of groups) signalAll([], 'SIGTERM', g);
        signalAll(pids, 'SIGTERM');
        const deadline = Date.now() + spec.stopTimeout * 1000;
        while (pids.some((pid) => isAlive(pid)) && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        const left = [...new Set([...pids, ...trees()])].filter((pid) => isAlive(pid));
        for (const g of groups) signalAll([], 'SIGKILL', g);
        signalAll(left, 'SIGKILL');
        await Promise.all(replicas.map((r) => r.process.finished));
      })();
      return stopping;
    },
    kill() {
      const pids = trees();
      for (const r of replicas) signalAll([], 'SIGKILL', r.process.pid);
      signalAll(pids, 'SIGKILL');
    },
  };
}

async function waitReady(replica: Replica, spec: ServerSpec, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + spec.ready.timeout * 1000;
  const probe = readinessProbe(replica, spec);
  let last = 'no answer yet';
  for (;;) {
    if (signal?.aborted === true) throw new RunError('interrupted');
    const child = replica.process.child;
    if (child.exitCode !== null || child.signalCode !== null) {
      throw await exitedError(replica, 'exited before it was ready');
    }
    const outcome = await probe();
    if (outcome === true) return;
    last = outcome;
    if (Date.now() >= deadline) {
      throw new RunError(
        `${replicaName(replica)} did not become ready within ${spec.ready.timeout} s (workload.server.ready.timeout); last probe: ${last}${replicaOutput(replica)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
  }
}

/** A probe that resolves true when ready, else a description of what it found. */
function readinessProbe(replica: Replica, spec: ServerSpec): () => Promise<true | string> {
  const host = spec.host.replace(/^\[|\]$/g, '');
  const url = spec.ready.http;
  if (url === undefined) {
    return () =>
      new Promise((resolve) => {
        const socket = net.connect({ host, port: replica.port });
        socket.setTimeout(1000);
        socket.once('connect', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('timeout', () => {
          socket.destroy();
          resolve(`TCP connect to port ${replica.port}: timed out`);
        });
        socket.once('error', (e: NodeJS.ErrnoException) =>
          resolve(`TCP connect to port ${replica.port}: ${e.code ?? e.message}`),
        );
      });
  }
  const target = /^https?:/.test(url)
    ? url.replace(/\$\{?PORT\}?/g, String(replica.port))
    : `${replica.origin}${url.startsWith('/') ? '' : '/'}${url}`;
  return () =>
    new Promise((resolve) => {
      const request = http.get(target, { agent: false, timeout: 1000 }, (response) => {
        response.resume();
        const status = response.statusCode ?? 0;
        resolve(status >= 200 && status < 400 ? true : `GET ${target}: HTTP ${status}`);
      });
      request.once('timeout', () => request.destroy(new Error('timed out')));
      request.once('error', (e: NodeJS.ErrnoException) =>
        resolve(`GET ${target}: ${e.code ?? e.message}`),
      );
    });
}

async function exitedError(replica: Replica, what: string): Promise<RunError> {
  const result = await replica.process.finished;
  const how =
    result.signal !== null ? `killed by ${result.signal}` : `exited with code ${result.code}`;
  const why = result.code === 127 ? ' (command not found)' : '';
  return new RunError(`${replicaName(replica)} ${what}: ${how}${why}${replicaOutput(replica)}`);
}

function replicaOutput(replica: Replica): string {
  const text = replica.output().trim();
  return text === '' ? '; it printed nothing' : `; the end of its output:\n${lastLines(text, 15)}`;
}

/** `$PORT`, `${PORT}`, `$REPLICA` and `${REPLICA}` in an argv word (there is no shell). */
export function substitute(word: string, port: number, replica: number): string {
  return word
    .replace(/\$\{PORT\}|\$PORT\b/g, String(port))
    .replace(/\$\{REPLICA\}|\$REPLICA\b/g, String(replica));
}

/** Fails early, naming the field, when the server's program cannot be found. */
function checkCommand(program: string, cwd: string, env: NodeJS.ProcessEnv): void {
  const candidates = program.includes('/')
    ? [path.resolve(cwd, program)]
    : (env.PATH ?? '').split(':').map((dir) => path.join(path.resolve(cwd, dir || '.'), program));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return;
    } catch {
      // try the next one
    }
  }
  const where = program.includes('/') ? `in ${cwd}` : 'on the PATH';
  throw new RunError(
    `workload.server.command: ${program} is not an executable ${where}; install it or fix the command`,
  );
}

/** A port the kernel says is free now (it is handed to the server as $PORT). */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen({ host: host.replace(/^\[|\]$/g, ''), port: 0 }, () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

/** A fixed port must be free: otherwise the probe would find whoever holds it. */
function checkPortFree(
  host: string,
  port: number,
  version: string,
  index: number,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new RunError(
          `workload.server.ports.${version}[${index}]: port ${port} on ${host} is ${error.code === 'EADDRINUSE' ? 'already in use by another process' : `not usable (${error.code ?? error.message})`}; free it or choose another port`,
        ),
      ),
    );
    server.listen({ host: host.replace(/^\[|\]$/g, ''), port, exclusive: true }, () =>
      server.close(() => resolve(port)),
    );
  });
}
