import type { Placement } from '../../isolation/types.js';
import type { Workload } from '../../scenario/schema.js';
import type { TrialMetric } from '../samples.js';

/** What a driver knows about the version it measures. */
export interface SideContext {
  version: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Where each CPU slot is; `arm` says which one the next iteration runs in. */
  placements: Placement[];
  /** The slot the side starts in (where a persistent process is spawned). */
  slot: number;
  /** Per-iteration time limit, seconds. */
  timeout: number;
}

/** The outcome of one iteration on one side. */
export interface IterationResult {
  /** hrtime (ns) when the iteration was released and when the harness saw it end. */
  start: bigint;
  end: bigint;
  metrics: TrialMetric[];
}

/**
 * One version's workload, ready to run iterations. For each step the runner calls `arm` on
 * every side (slow work: spawning, moving into the slot), then `prime` on every side (each
 * gets ready to start at once), then releases the barrier and calls `fire` on every side:
 * that makes iteration i of a duet start together, and no side starts the next one until
 * every side has finished (the runner waits for all `fire`s).
 */
export interface Side {
  /** `flag`: the barrier file whose creation starts the iteration (see barrier.ts). */
  arm(round: number, slot: number, flag: string): Promise<void>;
  prime(): Promise<void>;
  /**
   * Runs the iteration released at `releasedAt` (hrtime, ns) and resolves when it is over.
   * A side that cannot start on the barrier (a persistent process) starts it here.
   */
  fire(round: number, releasedAt: bigint): Promise<IterationResult>;
  /** Stops every process of this side now (interruption). */
  kill(): void;
  /** Ends the side gracefully after the last iteration. */
  close(): Promise<void>;
}

/** One registry entry per workload driver (command, persistent; http and others plug in here). */
export interface Driver {
  readonly name: Workload['driver'];
  open(workload: Workload, side: SideContext): Promise<Side>;
}
