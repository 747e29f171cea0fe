import { Worker } from 'node:worker_threads';
import { Pool } from 'undici';
import type { LoadSpec } from '../scenario/service-schema.js';
import { createRng } from '../stats/rng.js';
import { LatencyHistogram } from './histogram.js';
import type { ConfigureMessage, PhaseMessage, PhaseResult, TargetResult } from './protocol.js';
import type { ErrorKind } from '../contracts/load.js';
import { buildSchedule, requestTable, type RequestDef } from './schedule.js';

/** Lead time between receiving a phase and its first intended send, ms. */
const LEAD_MS = 100;
/** Longest response body kept as an error example. */
const EXCERPT = 200;
/** Keep-alive sockets idle this long are closed by the pool (ms). */
const KEEP_ALIVE_MS = 60_000;

interface InFlight {
  deadline: number;
  controller: AbortController;
  done: boolean;
  timedOut: boolean;
}

/** One version's replicas and what was measured against them in the current phase. */
class Target {
  readonly pools: Pool[];
  readonly outstanding: number[];
  private next = 0;
  latency = new LatencyHistogram();
  byRequest = new Map<string, LatencyHistogram>();
  sent = 0;
  ok = 0;
  sentTotal = 0;
  errors: Record<ErrorKind, number> = { status: 0, timeout: 0, connection: 0, other: 0 };
  statusCodes: Record<string, number> = {};
  examples: TargetResult['examples'] = [];
  perReplica: number[];

  constructor(
    readonly version: string,
    origins: readonly string[],
    readonly load: LoadSpec,
  ) {
    this.pools = origins.map(
      (origin) =>
        new Pool(origin, {
          connections: load.connections,
          pipelining: 1,
          keepAliveTimeout: KEEP_ALIVE_MS,
          // Our own sweep enforces the per-request limit from the intended send time; these
          // only stop a socket that hangs for much longer.
          headersTimeout: load.timeout * 1000 + 5000,
          bodyTimeout: load.timeout * 1000 + 5000,
          connect: { timeout: load.timeout * 1000 },
        }),
    );
    this.outstanding = origins.map(() => 0);
    this.perReplica = origins.map(() => 0);
  }

  /** The replica for the next request: round-robin, or the one with the fewest outstanding. */
  pick(): number {
    const n = this.pools.length;
    if (n === 1) return 0;
    if (this.load.balance === 'round-robin') {
      const i = this.next;
      this.next = (i + 1) % n;
      return i;
    }
    // Least outstanding; ties broken round-robin so equal replicas share the load.
    let best = -1;
    for (let k = 0; k < n; k++) {
      const i = (this.next + k) % n;
      if (best < 0 || this.outstanding[i]! < this.outstanding[best]!) best = i;
    }
    this.next = (best + 1) % n;
    return best;
  }

  histogramFor(name: string): LatencyHistogram {
    let h = this.byRequest.get(name);
    if (h === undefined) this.byRequest.set(name, (h = new LatencyHistogram()));
    return h;
  }

  result(percentiles: readonly number[], requests: readonly RequestDef[]): TargetResult {
    const byRequest = Object.fromEntries(
      requests.map((r) => [r.name, this.histogramFor(r.name).summary(percentiles)]),
    );
    return {
      version: this.version,
      sent: this.sent,
      ok: this.ok,
      errors: { ...this.errors },
      sentTotal: this.sentTotal,
      statusCodes: { ...this.statusCodes },
      examples: [...this.examples],
      latency: this.latency.summary(percentiles),
      byRequest,
      perReplica: [...this.perReplica],
    };
  }

  reset(): void {
    this.latency = new LatencyHistogram();
    this.byRequest = new Map();
    this.sent = this.ok = this.sentTotal = 0;
    this.errors = { status: 0, timeout: 0, connection: 0, other: 0 };
    this.statusCodes = {};
    this.examples = [];
    this.perReplica = this.pools.map(() => 0);
  }

  fail(kind: ErrorKind, replica: number, request: string, detail: string): void {
    this.errors[kind]++;
    if (!this.examples.some((e) => e.kind === kind)) {
      this.examples.push({ kind, replica, request, detail });
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.pools.map((p) => p.destroy()));
  }
}

/**
 * The load generator: sends each phase's schedule (open loop: every request at its intended
 * time, whether or not earlier ones were answered; latency from that intended time, so a
 * stalled server is charged for every request that waited — no coordinated omission), or runs
 * `concurrency` closed-loop users. Keep-alive pools per replica (undici), balancing over the
 * replicas, a per-request time limit, HDR histograms of latency and of send lag.
 */
export class LoadGenerator {
  private readonly targets: Target[];
  private readonly requests: RequestDef[];
  private readonly inflight: InFlight[] = [];
  private inflightHead = 0;
  private pending = 0;
  private drained: (() => void) | null = null;
  private sweeper: NodeJS.Timeout | null = null;

  constructor(private readonly config: ConfigureMessage) {
    this.requests = requestTable(config.load);
    this.targets = config.targets.map((t) => new Target(t.version, t.origins, config.load));
  }

  async phase(message: PhaseMessage): Promise<PhaseResult> {
    const load = this.config.load;
    const targets = message.targets.map((i) => this.targets[i]!);
    targets.forEach((t) => t.reset());
    this.startSweeper();
    const started = performance.now();
    const outcome =
      load.arrival === 'closed'
        ? await this.closedLoop(targets, message.seed)
        : await this.openLoop(targets, message.seed);
    await this.drain();
    this.stopSweeper();
    return {
      type: 'result',
      id: message.id,
      arrival: load.arrival,
      ...outcome,
      elapsedSeconds: (performance.now() - started) / 1000,
      targets: targets.map((t) => t.result(load.percentiles, this.requests)),
    };
  }

  async close(): Promise<void> {
    this.stopSweeper();
    await Promise.allSettled(this.targets.map((t) => t.close()));
  }

  private openLoop(
    targets: Target[],
    seed: number,
  ): Promise<Pick<PhaseResult, 'measuredSeconds' | 'intended' | 'sentInWindow' | 'sendLag'>> {
    const load = this.config.load;
    const schedule = buildSchedule(load, seed);
    const n = schedule.times.length;
    const lag = new LatencyHistogram();
    const t0 = performance.now() + LEAD_MS;
    const windowEnd = t0 + schedule.measured.end * 1000;
    let intended = 0;
    let sentInWindow = 0;
    // Which target gets each arrival first alternates at random (seeded), so no version is
    // always the second to be sent to.
    let order = (seed ^ 0x9e3779b9) >>> 0 || 1;
    let i = 0;
    const ticker = startTicker(t0, schedule.times, this.config.spin);
    return new Promise((resolve) => {
      // The ticker thread wakes this one at each intended send time (a timer here would wake
      // up to a millisecond late); every arrival that is due is sent, late ones included.
      ticker.on('message', () => {
        let now = performance.now();
        while (i < n) {
          const at = t0 + schedule.times[i]! * 1000;
          if (at > now) break;
          const measured = schedule.warmup[i] === 0;
          const request = this.requests[schedule.request[i]!]!;
          order ^= order << 13;
          order ^= order >>> 17;
          order ^= order << 5;
          const flip = targets.length > 1 && (order & 1) === 1;
          for (let k = 0; k < targets.length; k++) {
            const target = targets[flip ? targets.length - 1 - k : k]!;
            void this.send(target, request, at, measured);
          }
          if (measured) {
            intended++;
            if (now <= windowEnd) sentInWindow++;
            lag.record(now - at);
          }
          i++;
          now = performance.now();
        }
        if (i < n) return;
        void ticker.terminate();
        resolve({
          measuredSeconds: schedule.measured.seconds,
          intended,
          sentInWindow,
          sendLag: lag.summary(load.percentiles),
        });
      });
    });
  }

  private async closedLoop(
    targets: Target[],
    seed: number,
  ): Promise<Pick<PhaseResult, 'measuredSeconds' | 'intended' | 'sentInWindow' | 'sendLag'>> {
    const load = this.config.load;
    const stages = load.stages!;
    const ends: { end: number; warmup: boolean }[] = [];
    let total = 0;
    for (const s of stages) ends.push({ end: (total += s.duration), warmup: s.warmup });
    const measuredSeconds = stages.filter((s) => !s.warmup).reduce((a, s) => a + s.duration, 0);
    const weights = load.mix.map((r) => r.weight);
    const sum = weights.reduce((a, b) => a + b, 0);
    const names = load.mix.map((r) => r.name ?? `${r.method} ${r.path}`);
    const t0 = performance.now() + LEAD_MS;
    await new Promise((resolve) => setTimeout(resolve, LEAD_MS));
    let sent = 0;
    const users = targets.flatMap((target, ti) =>
      Array.from({ length: load.concurrency }, async (_, u) => {
        const rng = createRng((seed + ti * 7919 + u * 104729) >>> 0);
        for (;;) {
          const now = performance.now();
          const at = (now - t0) / 1000;
          const stage = ends.find((s) => at < s.end);
          if (stage === undefined) return;
          let x = rng.nextFloat() * sum;
          let k = 0;
          while (k < weights.length - 1 && (x -= weights[k]!) >= 0) k++;
          const request = this.requests.find((r) => r.name === names[k])!;
          if (!stage.warmup) sent++;
          await this.send(target, request, now, !stage.warmup);
        }
      }),
    );
    await Promise.all(users);
    return { measuredSeconds, intended: sent, sentInWindow: sent, sendLag: null };
  }

  /** Sends one request; resolves when it has been answered, failed or given up. */
  private send(target: Target, request: RequestDef, at: number, measured: boolean): Promise<void> {
    const replica = target.pick();
    target.outstanding[replica]!++;
    target.perReplica[replica]!++;
    target.sentTotal++;
    if (measured) target.sent++;
    const entry: InFlight = {
      deadline: at + this.config.load.timeout * 1000,
      controller: new AbortController(),
      done: false,
      timedOut: false,
    };
    this.inflight.push(entry);
    this.pending++;
    const record = (): void => {
      const ms = performance.now() - at;
      target.latency.record(ms);
      target.histogramFor(request.name).record(ms);
    };
    return target.pools[replica]!.request({
      path: request.path,
      method: request.method as 'GET',
      headers: request.headers,
      body: request.body,
      signal: entry.controller.signal,
    })
      .then(async ({ statusCode, body }) => {
        if (statusCode >= 200 && statusCode < 300) {
          await body.dump({ limit: Number.MAX_SAFE_INTEGER });
          if (entry.timedOut) return;
          target.ok += measured ? 1 : 0;
          if (measured) record();
          return;
        }
        const text = await body.text().catch(() => '');
        target.statusCodes[statusCode] = (target.statusCodes[statusCode] ?? 0) + 1;
        target.fail(
          'status',
          replica,
          request.name,
          `HTTP ${statusCode}${text === '' ? '' : `: ${text.slice(0, EXCERPT)}`}`,
        );
      })
      .catch((error: Error & { code?: string }) => {
        if (entry.timedOut) {
          target.fail(
            'timeout',
            replica,
            request.name,
            `no answer within ${this.config.load.timeout} s of its intended send time`,
          );
          // A request given up on still counts in the latency (at the time it was given up):
          // leaving it out would make the percentiles look better than the service was.
          if (measured) record();
          return;
        }
        const code = error.code ?? error.name;
        const kind: ErrorKind = /TIMEOUT/i.test(code)
          ? 'timeout'
          : /ECONN|EPIPE|SOCKET|CLOSED|ENOTFOUND|EHOSTUNREACH|EADDR/i.test(code)
            ? 'connection'
            : 'other';
        target.fail(kind, replica, request.name, `${code}: ${error.message}`);
      })
      .finally(() => {
        entry.done = true;
        target.outstanding[replica]!--;
        if (--this.pending === 0 && this.drained !== null) this.drained();
      });
  }

  private drain(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.drained = () => {
        this.drained = null;
        resolve();
      };
    });
  }

  /** Gives up on requests past their time limit (they are in order of their deadlines). */
  private startSweeper(): void {
    const every = Math.min(100, Math.max(5, (this.config.load.timeout * 1000) / 20));
    this.sweeper = setInterval(() => {
      const now = performance.now();
      while (this.inflightHead < this.inflight.length) {
        const entry = this.inflight[this.inflightHead]!;
        if (!entry.done) {
          if (entry.deadline > now) break;
          entry.timedOut = true;
          entry.controller.abort();
        }
        this.inflightHead++;
      }
      if (this.inflightHead > 4096 && this.inflightHead * 2 > this.inflight.length) {
        this.inflight.splice(0, this.inflightHead);
        this.inflightHead = 0;
      }
    }, every);
  }

  private stopSweeper(): void {
    if (this.sweeper !== null) clearInterval(this.sweeper);
    this.sweeper = null;
    this.inflight.length = 0;
    this.inflightHead = 0;
  }
}

/**
 * The ticker: a thread that sleeps until each intended send time (Atomics.wait takes
 * fractions of a millisecond; the event loop's timers do not) and then posts the arrival's
 * index, which wakes the generator's event loop at once. With `spin`, it busy-waits the last
 * 50 µs for sends within microseconds of their time.
 */
const TICKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const word = new Int32Array(new SharedArrayBuffer(4));
const { origin, times, spin } = workerData;
const now = () => performance.timeOrigin + performance.now();
for (let i = 0; i < times.length; i++) {
  const at = origin + times[i] * 1000;
  const wait = at - now() - (spin ? 0.05 : 0);
  if (wait > 0) Atomics.wait(word, 0, 0, wait);
  if (spin) while (now() < at) {}
  parentPort.postMessage(i);
}
`;

function startTicker(t0: number, times: Float64Array, spin: boolean): Worker {
  return new Worker(TICKER_SOURCE, {
    eval: true,
    workerData: { origin: performance.timeOrigin + t0, times, spin },
  });
}
