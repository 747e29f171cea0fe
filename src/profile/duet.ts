import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startGated, type GatedProcess, type ProcessResult } from '../process/gated-process.js';
import type { Isolation, Placement } from '../isolation/types.js';
import type { WrappedRun } from './types.js';

/** One side's profiled run: the wrapped command, where it runs. */
export interface DuetSide {
  run: WrappedRun;
  cwd: string;
}

const ANYWHERE: Placement = {
  prefix: [],
  attach: async () => undefined,
  move: async () => undefined,
};

/**
 * Runs the sides' profiled commands as the measured pairs ran: each started behind the gate
 * in its own slot (`swap` puts them in each other's, so that no side always has the same
 * CPUs), released together by one flag file. With fewer than two slots the sides run one
 * after the other in the first. A run longer than `timeoutMs` is killed.
 */
export async function runDuet(
  sides: readonly [DuetSide, DuetSide],
  options: {
    isolation: Isolation | null;
    swap: boolean;
    scratch: string;
    step: number;
    timeoutMs: number;
    signal: AbortSignal;
  },
): Promise<[ProcessResult, ProcessResult]> {
  const slots = options.isolation?.report.slots.length ?? 0;
  const placement = (side: number): Placement => {
    if (options.isolation === null || slots === 0) return ANYWHERE;
    return options.isolation.place(slots >= 2 ? (side + (options.swap ? 1 : 0)) % 2 : 0);
  };
  const start = (side: number, flag: string) =>
    startGated(sides[side]!.run.argv, {
      cwd: sides[side]!.cwd,
      env: sides[side]!.run.env,
      placement: placement(side),
      flag,
      stdin: 'ignore',
    });
  if (slots >= 2) {
    const flag = path.join(options.scratch, `release-${options.step}`);
    const started: GatedProcess[] = [];
    try {
      started.push(await start(0, flag));
      started.push(await start(1, flag));
      await Promise.all(started.map((p) => p.prime()));
    } catch (error) {
      for (const p of started) p.kill();
      throw error;
    }
    await writeFile(flag, '');
    const [a, b] = await Promise.all(started.map((p) => finish(p, options)));
    return [a!, b!];
  }
  const results: ProcessResult[] = [];
  for (const side of [0, 1]) {
    const flag = path.join(options.scratch, `release-${options.step}-${side}`);
    const p = await start(side, flag);
    await p.prime();
    await writeFile(flag, '');
    results.push(await finish(p, options));
  }
  return [results[0]!, results[1]!];
}

async function finish(
  p: GatedProcess,
  options: { timeoutMs: number; signal: AbortSignal },
): Promise<ProcessResult> {
  const stop = (): void => p.kill();
  const timer = setTimeout(stop, options.timeoutMs);
  options.signal.addEventListener('abort', stop, { once: true });
  try {
    return await p.finished;
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener('abort', stop);
  }
}
