import { Worker } from 'node:worker_threads';
import { FALLBACK_LLC_BYTES, lastLevelCacheBytes } from './llc.js';
import { noiseActiveAt, resolveNoiseOptions, type NoiseOptions } from './options.js';
import { NOISE_WORKER_SOURCE } from './worker-source.js';

const PAUSED = 0;
const ON = 1;
const STOP = 2;

/** A running noise generator. */
export interface NoiseHandle {
  readonly options: NoiseOptions;
  /** Bytes each memory-mode thread streams over (0 in cpu mode). */
  readonly bufferBytes: number;
  /** Resolves when every thread has ended (after `duration`, or `stop()`). */
  readonly finished: Promise<void>;
  /** Stops every thread now; resolves when they have ended. Idempotent. */
  stop(): Promise<void>;
  /** Work units done so far by each thread (for tests). */
  progress(): number[];
}

/**
 * Starts a CPU (or memory-bandwidth) noise generator like the one of Japke et al. (2025, §3.2):
 * `threads` worker threads run compute-bound loops, each capped at `load` of a CPU by a duty
 * cycle (busy for load·period, asleep for the rest), optionally only between the schedule's
 * start and stop, and all stop by themselves after `duration`.
 */
export function startNoise(input: Partial<NoiseOptions> & { duration: number }): NoiseHandle {
  const options = resolveNoiseOptions(input);
  const bufferBytes =
    options.kind === 'memory'
      ? (options.bufferBytes ?? 2 * (lastLevelCacheBytes() ?? FALLBACK_LLC_BYTES))
      : 0;
  const control = new SharedArrayBuffer(4);
  const counters = new SharedArrayBuffer(8 * options.threads);
  const word = new Int32Array(control);
  const set = (state: number): void => {
    Atomics.store(word, 0, state);
    Atomics.notify(word, 0);
  };
  const t0 = performance.now();
  const elapsed = (): number => (performance.now() - t0) / 1000;
  set(noiseActiveAt(options, 0) ? ON : PAUSED);
  const workers = Array.from(
    { length: options.threads },
    (_, index) =>
      new Worker(NOISE_WORKER_SOURCE, {
        eval: true,
        workerData: { control, counters, index, ...options, bufferBytes },
      }),
  );
  const exits = workers.map(
    (worker) =>
      new Promise<void>((resolve, reject) => {
        worker.once('exit', () => resolve());
        worker.once('error', reject);
      }),
  );
  // Wake up at every edge of the schedule, and at the end.
  const edges = [options.schedule?.start, options.schedule?.stop, options.duration]
    .filter((t): t is number => t !== undefined && t > 0 && t <= options.duration)
    .sort((a, b) => a - b);
  const timers = edges.map((at) =>
    setTimeout(() => {
      if (Atomics.load(word, 0) === STOP) return;
      const now = Math.max(elapsed(), at);
      set(now >= options.duration ? STOP : noiseActiveAt(options, now) ? ON : PAUSED);
    }, at * 1000),
  );
  const finished = Promise.all(exits).then(() => timers.forEach(clearTimeout));
  return {
    options,
    bufferBytes,
    finished,
    stop() {
      set(STOP);
      timers.forEach(clearTimeout);
      return finished;
    },
    progress: () => [...new Float64Array(counters)],
  };
}
