/**
 * The load of an http run (src/load/): what samples.json keeps of each phase (`LoadRecord`)
 * and what comparison.json says about it (`LoadSummary`).
 */

/** How a request failed: a status other than 2xx, no answer in time, the connection, else. */
export type ErrorKind = 'status' | 'timeout' | 'connection' | 'other';
export const ERROR_KINDS: readonly ErrorKind[] = ['status', 'timeout', 'connection', 'other'];

/** The first failed request of a kind, as an example for the report. */
export interface ErrorExample {
  kind: ErrorKind;
  replica: number;
  request: string;
  /** `HTTP 500: <body excerpt>`, `ECONNREFUSED`, `no answer within 2 s`... */
  detail: string;
}

/**
 * What the samples file keeps of one load phase against one version (`Trial.load`): the load
 * actually offered, what the servers did with it, and whether the generator kept up.
 */
export interface LoadRecord {
  arrival: 'poisson' | 'constant' | 'closed';
  /** Measured part of the phase, s. */
  seconds: number;
  /** Requests per second the schedule intended (measured part). */
  intendedQps: number;
  /** 2xx answers per second (measured part). */
  achievedQps: number;
  sent: number;
  ok: number;
  /** Failed requests by kind, warm-up stages included: none is ever left out. */
  errors: Record<ErrorKind, number>;
  statusCodes: Record<string, number>;
  examples: ErrorExample[];
  /** Actual − intended send time (open loop), ms; null for a closed loop. */
  sendLagMs: { p50: number; p99: number; max: number } | null;
  /** Share of the measured requests sent before the measured part ended. */
  sendRate: number;
  /** Requests per replica (warm-up included). */
  perReplica: number[];
  /** The phase's latency histogram (HdrHistogram compressed base64), for merging later. */
  histogram: string;
  /** Where the load generator ran. */
  generator: GeneratorRecord;
}

/** Where the load generator ran: every report says so. */
export interface GeneratorRecord {
  /** Its CPU affinity list, as the kernel states it (null when unknown). */
  cpus: string | null;
  /** True when none of those CPUs is a measured slot's. */
  ownCpus: boolean;
  /** One sentence for reports. */
  description: string;
  /** Whether it busy-waited for send times (only on CPUs of its own). */
  spin: boolean;
}

/** What a comparison report says about the load of an http run (ComparisonReport.load). */
export interface LoadSummary {
  arrival: 'poisson' | 'constant' | 'closed';
  /** Where the load generator ran (one sentence). */
  generator: string;
  versions: {
    version: string;
    /** Measured iterations that were analysed. */
    iterations: number;
    intendedQps: number;
    achievedQps: number;
    sent: number;
    errors: Record<ErrorKind, number>;
    statusCodes: Record<string, number>;
    /** Largest send-lag p99 of its analysed iterations, ms (null: closed loop). */
    sendLagP99Ms: number | null;
    /** p99 over every analysed phase pooled (merged histograms), ms. */
    pooledP99Ms: number;
  }[];
  /** Iterations left out of the analysis, and why. */
  invalid: { round: number; reason: string }[];
}
