import type { LoadSpec } from '../scenario/service-schema.js';
import type { ErrorExample, ErrorKind } from '../contracts/load.js';
import type { HistogramSummary } from './histogram.js';

/**
 * The messages between the harness and the load generator process (JSON over the IPC
 * channel). The generator is a process of its own so that it can run on CPUs of its own,
 * and so that its event loop does nothing but send and receive.
 */

/** One version's servers, as the generator addresses them. */
export interface GeneratorTarget {
  version: string;
  /** `http://127.0.0.1:PORT` per replica. */
  origins: string[];
}

export interface ConfigureMessage {
  type: 'configure';
  load: LoadSpec;
  targets: GeneratorTarget[];
  /**
   * Busy-wait (setImmediate) for the last millisecond before a send instead of sleeping on a
   * timer: sends land within microseconds of their intended time, at the cost of a busy CPU.
   * Only when the generator has a CPU of its own.
   */
  spin: boolean;
}

export interface PhaseMessage {
  type: 'phase';
  id: number;
  /** Indexes into the configured targets that this phase loads (all at once, same arrivals). */
  targets: number[];
  seed: number;
}

export type ToGenerator = ConfigureMessage | PhaseMessage | { type: 'close' };

/** What one version's servers did in one phase. */
export interface TargetResult {
  version: string;
  /** Requests sent / answered with 2xx, measured part only. */
  sent: number;
  ok: number;
  /** Failed requests by kind (measured and warm-up stages: a failure is never left out). */
  errors: Record<ErrorKind, number>;
  /** Requests sent in the whole phase, warm-up included (the denominator of the error rate). */
  sentTotal: number;
  statusCodes: Record<string, number>;
  examples: ErrorExample[];
  /** Latency of every measured 2xx answer (and of timeouts, at the time they were given up). */
  latency: HistogramSummary;
  byRequest: Record<string, HistogramSummary>;
  /** Requests sent to each replica (measured and warm-up). */
  perReplica: number[];
}

export interface PhaseResult {
  type: 'result';
  id: number;
  arrival: LoadSpec['arrival'];
  /** The measured part of the schedule, seconds. */
  measuredSeconds: number;
  /** Requests the schedule intended in the measured part, per target. */
  intended: number;
  /** Of those, how many were sent before the measured part ended. */
  sentInWindow: number;
  /** Actual − intended send time, over every measured send (open loop only). */
  sendLag: HistogramSummary | null;
  /** Wall time of the whole phase, s (schedule plus the wait for the last answers). */
  elapsedSeconds: number;
  targets: TargetResult[];
}

export type FromGenerator =
  { type: 'ready' } | { type: 'configured' } | PhaseResult | { type: 'failed'; message: string };
