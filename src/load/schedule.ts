import type { ClientSpec, LoadSpec, RequestSpec, StageSpec } from '../scenario/service-schema.js';
import { createRng, type Rng } from '../stats/rng.js';

/** One request of a mix as the generator sends it. */
export interface RequestDef {
  /** Unique name: shown in reports and per-request metric names. */
  name: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | null;
}

/** One client as the schedule was built for it (for the samples file). */
export interface ClientPlan {
  name: string;
  start: number;
  /** Seconds after the phase start when its last stage ends (or its request cap was hit). */
  end: number;
  requests: number;
}

/**
 * Every request of one load phase, in order of intended send time (seconds after the phase
 * starts). Built up front from a seed, so every version (and every repetition) of a phase gets
 * the same arrivals and the same requests: the pairs of a duet share their schedule.
 */
export interface Schedule {
  seed: number;
  arrival: 'poisson' | 'constant';
  times: Float64Array;
  /** Index into `requests` of each arrival. */
  request: Uint16Array;
  /** Index into `clients` of each arrival. */
  client: Uint16Array;
  /** 1 when the arrival falls in a warm-up stage: sent, but left out of the metrics. */
  warmup: Uint8Array;
  requests: RequestDef[];
  clients: ClientPlan[];
  /** Seconds: the phase ends when the last stage of every client has. */
  duration: number;
  /** The measured part: from the first non-warm-up stage's start to the last one's end. */
  measured: { start: number; end: number; seconds: number };
}

/** Upper bound on the requests of one phase, so a typo (qps: 1e9) fails before allocating. */
export const MAX_PHASE_REQUESTS = 20_000_000;

interface Arrival {
  t: number;
  request: number;
  client: number;
  warmup: boolean;
}

/**
 * Builds a phase's schedule: each client draws its arrivals from its own random stream (so
 * adding a client does not change the others'), stage by stage: Poisson arrivals have
 * exponential gaps at the stage's rate (a gap that crosses into the next stage is drawn again
 * from the boundary at the new rate, which memorylessness makes exact), constant arrivals
 * are 1/qps apart from the stage's start. Pure.
 */
export function buildSchedule(load: LoadSpec, seed: number): Schedule {
  const arrival = load.arrival;
  if (arrival === 'closed') {
    throw new RangeError('a closed loop has no arrival schedule (its users pace themselves)');
  }
  const table = new RequestTable();
  const clients = clientSpecs(load);
  const root = createRng(seed);
  const arrivals: Arrival[] = [];
  const plans: ClientPlan[] = [];
  let measuredStart = Infinity;
  let measuredEnd = -Infinity;
  let duration = 0;
  let rng: Rng = root;
  clients.forEach((client, c) => {
    rng = rng.jumped();
    const stages = client.stages ?? load.stages!;
    const mix = (client.mix ?? load.mix).map((r) => table.index(r));
    const weights = (client.mix ?? load.mix).map((r) => r.weight);
    const pick = weightedPicker(weights);
    let count = 0;
    let end = client.start;
    let stageStart = client.start;
    const cap = client.requests ?? Infinity;
    for (const stage of stages) {
      const stageEnd = stageStart + stage.duration;
      if (!stage.warmup) {
        measuredStart = Math.min(measuredStart, stageStart);
        measuredEnd = Math.max(measuredEnd, stageEnd);
      }
      for (const t of stageTimes(stage, stageStart, stageEnd, arrival, rng)) {
        if (count >= cap) break;
        arrivals.push({ t, request: mix[pick(rng)]!, client: c, warmup: stage.warmup });
        count++;
        if (arrivals.length > MAX_PHASE_REQUESTS) {
          throw new RangeError(
            `the load schedule has more than ${MAX_PHASE_REQUESTS} requests per phase; lower the qps or the durations`,
          );
        }
      }
      end = count >= cap ? (arrivals.at(-1)?.t ?? stageStart) : stageEnd;
      stageStart = stageEnd;
      if (count >= cap) break;
    }
    duration = Math.max(duration, end);
    plans.push({
      name: client.name ?? `client ${c + 1}`,
      start: client.start,
      end,
      requests: count,
    });
  });
  arrivals.sort((a, b) => a.t - b.t || a.client - b.client);
  if (!Number.isFinite(measuredStart)) {
    throw new RangeError('every stage of the load is a warm-up stage: nothing would be measured');
  }
  const n = arrivals.length;
  const schedule: Schedule = {
    seed,
    arrival,
    times: new Float64Array(n),
    request: new Uint16Array(n),
    client: new Uint16Array(n),
    warmup: new Uint8Array(n),
    requests: table.defs,
    clients: plans,
    duration,
    measured: {
      start: measuredStart,
      end: measuredEnd,
      seconds: measuredEnd - measuredStart,
    },
  };
  arrivals.forEach((a, i) => {
    schedule.times[i] = a.t;
    schedule.request[i] = a.request;
    schedule.client[i] = a.client;
    schedule.warmup[i] = a.warmup ? 1 : 0;
  });
  return schedule;
}

/** The longest a phase can last, s: the latest end of any client's stages. */
export function phaseLength(load: LoadSpec): number {
  return Math.max(
    ...clientSpecs(load).map(
      (c) => c.start + (c.stages ?? load.stages!).reduce((sum, s) => sum + s.duration, 0),
    ),
  );
}

/** The load's clients; without `clients`, one client with the load's stages and mix. */
export function clientSpecs(load: LoadSpec): ClientSpec[] {
  return load.clients ?? [{ start: 0 }];
}

/** Every distinct request of every mix, named. */
export function requestTable(load: LoadSpec): RequestDef[] {
  const table = new RequestTable();
  for (const client of clientSpecs(load)) for (const r of client.mix ?? load.mix) table.index(r);
  return table.defs;
}

/** The arrival times of one stage, in [start, end). */
function* stageTimes(
  stage: StageSpec,
  start: number,
  end: number,
  arrival: 'poisson' | 'constant',
  rng: Rng,
): Generator<number> {
  if (stage.qps <= 0) return;
  if (arrival === 'constant') {
    const gap = 1 / stage.qps;
    for (let k = 0; ; k++) {
      const t = start + k * gap;
      if (t >= end) return;
      yield t;
    }
  }
  let t = start;
  for (;;) {
    // −ln(1 − u)/λ: an exponential gap; u < 1 always, so the log is finite.
    t += -Math.log(1 - rng.nextFloat()) / stage.qps;
    if (t >= end) return;
    yield t;
  }
}

/** Draws an index with probability proportional to its weight. */
function weightedPicker(weights: readonly number[]): (rng: Rng) => number {
  const total = weights.reduce((a, b) => a + b, 0);
  const cumulative: number[] = [];
  let sum = 0;
  for (const w of weights) cumulative.push((sum += w / total));
  if (weights.length === 1) return () => 0;
  return (rng) => {
    const u = rng.nextFloat();
    const i = cumulative.findIndex((c) => u < c);
    return i < 0 ? weights.length - 1 : i;
  };
}

class RequestTable {
  readonly defs: RequestDef[] = [];
  private readonly keys: string[] = [];

  index(spec: RequestSpec): number {
    const def = toDef(spec);
    const key = JSON.stringify(def);
    const found = this.keys.indexOf(key);
    if (found >= 0) return found;
    const clash = this.defs.find((d) => d.name === def.name);
    if (clash !== undefined) {
      throw new RangeError(
        `two different requests are both named "${def.name}"; give them distinct names (workload.load.mix[].name)`,
      );
    }
    this.keys.push(key);
    this.defs.push(def);
    return this.defs.length - 1;
  }
}

function toDef(spec: RequestSpec): RequestDef {
  const headers = { ...spec.headers };
  let body: string | null = null;
  if (typeof spec.body === 'string') body = spec.body;
  else if (spec.body !== undefined) {
    body = JSON.stringify(spec.body);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
  }
  return {
    name: spec.name ?? `${spec.method} ${spec.path}`,
    method: spec.method,
    path: spec.path,
    headers,
    body,
  };
}
