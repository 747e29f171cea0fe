import { durationSeconds } from '../scenario/values.js';

export const NOISE_KINDS = ['cpu', 'memory'] as const;
export type NoiseKind = (typeof NOISE_KINDS)[number];

/** When the noise is on, in seconds since it was started: `[start, stop)`. */
export interface NoiseSchedule {
  start: number;
  stop: number;
}

/** What `duetkit noise` (and `startNoise`) generate; every default is stated here. */
export interface NoiseOptions {
  /** Busy threads (worker_threads). */
  threads: number;
  /** Share of one CPU each thread uses while on, in (0, 1]: its duty cycle. */
  load: number;
  /** Seconds until the generator stops by itself. */
  duration: number;
  /** Noise only inside this window; null: on for the whole duration. */
  schedule: NoiseSchedule | null;
  /** `cpu`: integer loops in registers; `memory`: streaming over a buffer larger than the LLC. */
  kind: NoiseKind;
  /** Busy/sleep period of the duty cycle, ms. Default 10. */
  periodMs: number;
  /** Memory mode: buffer size in bytes. Default: 2 × the last-level cache. */
  bufferBytes?: number;
}

/** Reads `20s-50s` (or `20-50`, `1m-2m30s` is not accepted: one unit per bound). */
export function parseSchedule(text: string): NoiseSchedule {
  const match = /^\s*([^-\s]+)\s*-\s*([^-\s]+)\s*$/.exec(text);
  const start = match === null ? null : parseStart(match[1]!);
  const stop = match === null ? null : durationSeconds(match[2]!);
  if (start === null || stop === null || !(stop > start)) {
    throw new RangeError(
      `--schedule: got ${JSON.stringify(text)}; expected START-STOP with STOP after START, like 20s-50s`,
    );
  }
  return { start, stop };
}

function parseStart(text: string): number | null {
  return /^\s*0+(\.0*)?\s*(ms|s|m|h)?\s*$/.test(text) ? 0 : durationSeconds(text);
}

/** Checks every option and fills in defaults; the message names the option and the bad value. */
export function resolveNoiseOptions(
  input: Partial<NoiseOptions> & { duration: number },
): NoiseOptions {
  const options: NoiseOptions = {
    threads: input.threads ?? 1,
    load: input.load ?? 1,
    duration: input.duration,
    schedule: input.schedule ?? null,
    kind: input.kind ?? 'cpu',
    periodMs: input.periodMs ?? 10,
    ...(input.bufferBytes === undefined ? {} : { bufferBytes: input.bufferBytes }),
  };
  if (!(Number.isInteger(options.threads) && options.threads >= 1 && options.threads <= 1024)) {
    throw new RangeError(`--threads: got ${options.threads}; expected an integer from 1 to 1024`);
  }
  if (!(options.load > 0 && options.load <= 1)) {
    throw new RangeError(
      `--load: got ${options.load}; expected a share of one CPU in (0, 1], like 0.6`,
    );
  }
  if (!(options.duration > 0 && Number.isFinite(options.duration))) {
    throw new RangeError(
      `--duration: got ${options.duration}; expected a positive duration like 60s`,
    );
  }
  if (options.schedule !== null && options.schedule.start >= options.duration) {
    throw new RangeError(
      `--schedule: starts at ${options.schedule.start} s, after the end of --duration ${options.duration} s`,
    );
  }
  if (!NOISE_KINDS.includes(options.kind)) {
    throw new RangeError(
      `--kind: got ${JSON.stringify(options.kind)}; expected one of ${NOISE_KINDS.join(', ')}`,
    );
  }
  if (!(options.periodMs >= 1 && options.periodMs <= 1000)) {
    throw new RangeError(`period: got ${options.periodMs} ms; expected 1 to 1000 ms`);
  }
  if (
    options.bufferBytes !== undefined &&
    !(Number.isInteger(options.bufferBytes) && options.bufferBytes >= 4096)
  ) {
    throw new RangeError(`buffer: got ${options.bufferBytes} bytes; expected an integer ≥ 4096`);
  }
  return options;
}

/** Whether the noise is on `elapsed` seconds after the start. Pure. */
export function noiseActiveAt(
  options: Pick<NoiseOptions, 'schedule' | 'duration'>,
  elapsed: number,
): boolean {
  if (elapsed >= options.duration) return false;
  if (options.schedule === null) return true;
  return elapsed >= options.schedule.start && elapsed < options.schedule.stop;
}
