import type { ErrorExample, ErrorKind } from './protocol.js';

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
