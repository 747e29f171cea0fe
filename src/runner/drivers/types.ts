import type { IsolationReport } from '../../contracts/isolation.js';
import type { Placement } from '../../isolation/types.js';
import type { Workload } from '../../scenario/schema.js';
import type { TrialMetric, KeepBusy } from '../../contracts/samples.js';
import type { LoadRecord } from '../../contracts/load.js';
import type { Gate } from '../barrier.js';
import type { TimerPool } from './timer-pool.js';

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
  /**
   * The compiled timer (src/runner/timer) that times a command where it runs; null when none
   * could be built, and the harness's clock is used instead (the samples say so).
   */
  timer: string | null;
  /** What a side that finishes first does while the others still run (duet). */
  keepBusy: KeepBusy;
  /** The run's seed (the http driver derives each phase's arrival schedule from it). */
  seed: number;
  /** The isolation in effect (where the CPU slots and the harness are). */
  isolation: IsolationReport;
  /** Aborted on interruption. */
  signal: AbortSignal;
  /** The run's timers, kept between experiments (timer-pool.ts); absent: the side's own. */
  timers?: TimerPool;
  /**
   * Copies of the command's program (argv[0]), one drawn at random for each process (a
   * prebuilt benchmark binary: where its file's pages lie can make one copy slower for a
   * benchmark in every run, a difference of files, not of versions); absent: argv[0].
   */
  programs?: readonly string[];
}

/** The outcome of one iteration on one side. */
export interface IterationResult {
  /**
   * hrtime (ns) when the iteration started and ended: stamped by the timer on the side's own
   * CPU where there is one, else when the harness released it and saw it end.
   */
  start: bigint;
  end: bigint;
  metrics: TrialMetric[];
  /** CPU time (user + system) of the command, ms, when the timer measured it. */
  cpuMs?: number;
  /** hrtime (ns) when the harness learned that the iteration had ended (a diagnostic). */
  seenEnd?: bigint;
  /** The copy of the program the process ran (SideContext.programs), when there were copies. */
  program?: number;
  /** Why the iteration must not be analysed (recorded, and listed by the report). */
  invalid?: string;
  /** http driver: the load offered and what the servers did with it. */
  load?: LoadRecord;
}

/** What a side is told before a step. */
export interface Arming {
  round: number;
  /** The CPU slot it runs in. */
  slot: number;
  /**
   * The step's start line (the flag file whose creation starts the iteration) and, for sides
   * that run together, its end line (see barrier.ts).
   */
  gate: Gate;
  /**
   * How long after the start line this side starts, ns (a staggered duet, see
   * `workload.stagger`); 0 otherwise. A driver that cannot delay a start ignores it.
   */
  delayNs: number;
}

/**
 * One version's workload, ready to run iterations. For each step the runner calls `arm` on
 * every side (slow work: spawning, moving into the slot), then `prime` on every side (each
 * gets ready to start at once), then releases the barrier and calls `fire` on every side:
 * that makes iteration i of a duet start together, and no side starts the next one until
 * every side has finished (the runner waits for all `fire`s).
 */
export interface Side {
  arm(arming: Arming): Promise<void>;
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
  /** After `kill()`: resolves when everything the side started has ended. */
  stopped?(): Promise<void>;
}

/** One registry entry per workload driver (command, persistent; http and others plug in here). */
export interface Driver {
  readonly name: Workload['driver'];
  open(workload: Workload, side: SideContext): Promise<Side>;
  /**
   * Opens every version's side at once, for sides that share something (one load generator
   * for all versions), in version order. `opened` is told of each side as soon as it exists,
   * so a failure later in opening still stops it. Without it, `open` is called per version.
   */
  openAll?(workload: Workload, sides: SideContext[], opened: (side: Side) => void): Promise<void>;
}
