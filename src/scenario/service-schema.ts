import { z } from 'zod';
import { argv, duration, versionName } from './fields.js';

/**
 * The parts of a workload that describe services under load (docs/services.md): the servers
 * each version starts (`workload.server`), the load the http driver offers them
 * (`workload.load`) and how the stream driver reads a long-running program's samples
 * (`workload.stream`). Every default is stated here and in docs/services.md.
 */

/** 0 or more seconds: a client's start offset. */
const offset = z
  .union([z.number(), z.string()], { error: 'a duration: seconds, or "500ms", "90s", "2m"' })
  .transform((value, ctx) => {
    if (value === 0 || value === '0') return 0;
    const parsed = duration.safeParse(value);
    if (parsed.success) return parsed.data;
    ctx.addIssue({ code: 'custom', message: 'a duration ≥ 0: seconds, or "500ms", "2s"' });
    return z.NEVER;
  });

const port = z.number().int().min(1).max(65535);

/** Where servers may listen: this machine only (the load never leaves it). */
const LOOPBACK = /^(127(\.\d{1,3}){3}|localhost|::1|\[::1\])$/;

const ready = z
  .object({
    /** A path (`/healthz`) or URL on the replica's port that answers 2xx or 3xx when ready. */
    http: z.string().min(1).optional(),
    /** Ready when the port accepts a TCP connection (the default probe). */
    tcp: z.boolean().optional(),
    /** How long a replica may take to become ready. Default 30 s. */
    timeout: duration.default(30),
  })
  .strict()
  .refine((r) => !(r.http !== undefined && r.tcp === true), {
    message: 'one probe: "http" (a path or URL) or "tcp: true", not both',
  });

export const serverSchema = z
  .object({
    /** The server, started in the version's directory (argv, never a shell); `$PORT` is replaced. */
    command: argv,
    /** Processes per version, each on its own port. Default 1. */
    replicas: z.number().int().min(1).max(64).default(1),
    /** Fixed ports per version name (one per replica); default: free ports, passed as $PORT. */
    ports: z.record(versionName, z.array(port).min(1)).optional(),
    /** The address the replicas listen on and the load is sent to. Default 127.0.0.1. */
    host: z
      .string()
      .regex(
        LOOPBACK,
        'a loopback address (127.0.0.1, localhost or ::1): load stays on this machine',
      )
      .default('127.0.0.1'),
    ready: ready.default(() => ready.parse({})),
    /** Extra environment variables for the server (over the version's `env`). */
    env: z.record(z.string(), z.string()).default({}),
    /** How long a replica may take to exit after SIGTERM before its tree is SIGKILLed. Default 5 s. */
    stopTimeout: duration.default(5),
  })
  .strict();

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

export const requestSchema = z
  .object({
    /** Shown in reports and metric names. Default `METHOD path`. */
    name: z.string().min(1).optional(),
    method: z.enum(METHODS).default('GET'),
    path: z.string().startsWith('/', 'a path starting with "/"'),
    headers: z.record(z.string(), z.string()).default({}),
    /** A string, or any JSON value (sent as JSON with content-type application/json). */
    body: z.unknown().optional(),
    /** Relative share of this request in the mix. Default 1. */
    weight: z.number().min(0, 'a weight ≥ 0').default(1),
  })
  .strict();

export const stageSchema = z
  .object({
    duration,
    /** Requests per second in this stage (0: a pause); ignored by `arrival: closed`. */
    qps: z.number().min(0, 'a rate ≥ 0 requests per second').default(0),
    /** Requests sent in this stage warm the service up and are left out of the metrics. */
    warmup: z.boolean().default(false),
  })
  .strict();

const mix = z
  .array(requestSchema)
  .min(1)
  .refine((m) => m.some((r) => r.weight > 0), {
    message: 'weights that add up to more than 0 (at least one request with a weight > 0)',
  });

export const clientSchema = z
  .object({
    name: z.string().min(1).optional(),
    /** When this client starts, after the phase starts. Default 0. */
    start: offset.default(0),
    /** Its own rate schedule. Default: the load's `stages`. */
    stages: z.array(stageSchema).min(1).optional(),
    /** At most this many requests, then the client stops. Default: no limit. */
    requests: z.number().int().min(1).optional(),
    /** Its own request mix. Default: the load's `mix`. */
    mix: mix.optional(),
  })
  .strict();

export const ARRIVALS = ['poisson', 'constant', 'closed'] as const;
export const BALANCES = ['round-robin', 'least-outstanding'] as const;
export const DEFAULT_PERCENTILES = [50, 90, 95, 99, 99.9];

export const loadSchema = z
  .object({
    /**
     * `poisson` (default) or `constant` open-loop arrivals, latency measured from each
     * request's intended send time; `closed`: `concurrency` users that each send the next
     * request when the last one is answered (for contrast: it hides stalls).
     */
    arrival: z.enum(ARRIVALS).default('poisson'),
    /** With `arrival: closed`: users per version. Default 8. */
    concurrency: z.number().int().min(1).max(10_000).default(8),
    /** The rate schedule of the default client (and of clients without their own). */
    stages: z.array(stageSchema).min(1).optional(),
    /** The requests sent, chosen at random by weight. Default `GET /`. */
    mix: mix.default(() => [requestSchema.parse({ path: '/' })]),
    /** Several clients, each with its own start, schedule, request count and mix. */
    clients: z.array(clientSchema).min(1).optional(),
    /** How requests are spread over a version's replicas. Default round-robin. */
    balance: z.enum(BALANCES).default('round-robin'),
    /** Keep-alive connections per replica (requests beyond them wait in the client). Default 64. */
    connections: z.number().int().min(1).max(10_000).default(64),
    /** Per-request time limit, from its intended send time; then it counts as a timeout error. */
    timeout: duration.default(10),
    /** Largest share of failed requests (any kind) before the run fails. Default 0.01. */
    maxErrorRate: z.number().min(0).max(1).default(0.01),
    /** An iteration whose send lag (actual − intended send time) has a larger p99 is invalid. */
    maxSendLag: duration.default(0.005),
    /** An iteration that sent less than this share of its requests on time is invalid. */
    minSendRate: z.number().gt(0).max(1).default(0.98),
    /** Latency percentiles, each compared as its own metric. */
    percentiles: z
      .array(z.number().gt(0).lt(100))
      .min(1)
      .default(() => [...DEFAULT_PERCENTILES]),
    /** Also report every request of the mix as its own metrics (when there are several). */
    perRequest: z.boolean().default(true),
  })
  .strict()
  .superRefine((load, ctx) => {
    if (load.arrival === 'closed' && load.clients !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['clients'],
        message: 'no clients with arrival: closed (its users are `concurrency` and `stages`)',
      });
    }
    const missing = (load.clients ?? [{ stages: undefined }]).some((c) => c.stages === undefined);
    if (load.stages === undefined && missing) {
      ctx.addIssue({
        code: 'custom',
        path: ['stages'],
        message: 'a rate schedule: stages: [{duration: 10s, qps: 100}] (or stages on every client)',
      });
    }
  });

const TRIM = z.union([z.literal('detect'), z.literal(0), duration]);

export const streamSchema = z
  .object({
    /** Stop the program (SIGTERM, then SIGKILL) after this long; default: it exits by itself. */
    duration: duration.optional(),
    /** Leading samples to drop: a duration from the first sample, 0, or `detect` (MSER-5). */
    warmup: TRIM.default('detect'),
    /** Trailing samples to drop: a duration before the last sample, 0, or `detect`. */
    cooldown: TRIM.default(0),
    /** How each iteration's steady state is summarised. Default mean (ShuffleBench's). */
    aggregate: z.enum(['mean', 'median']).default('mean'),
    /** Whether bigger values are better, for every metric not listed in `metrics`. */
    biggerIsBetter: z.boolean().optional(),
    /** Per metric name: its unit and direction. */
    metrics: z
      .record(
        z.string().min(1),
        z.object({ unit: z.string().default(''), biggerIsBetter: z.boolean() }).strict(),
      )
      .default({}),
    /** Fewest steady-state samples an iteration must keep. Default 5. */
    minSamples: z.number().int().min(2).default(5),
  })
  .strict();

export type ServerSpec = z.output<typeof serverSchema>;
export type LoadSpec = z.output<typeof loadSchema>;
export type RequestSpec = z.output<typeof requestSchema>;
export type StageSpec = z.output<typeof stageSchema>;
export type ClientSpec = z.output<typeof clientSchema>;
export type StreamSpec = z.output<typeof streamSchema>;
