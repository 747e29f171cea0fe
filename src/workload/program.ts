import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { serve } from '../harness/serve.js';
import { UserError } from '../errors.js';
import { checkUnits, runKernel } from './kernel.js';

/** Name of the benchmark the reference workload reports. */
export const KERNEL_BENCHMARK = 'kernel';

/** The file a version directory holds its units in (one integer), for `--units-file`. */
export const UNITS_FILE = 'units';

/**
 * The reference workload as a persistent-protocol server (docs/protocol.md): one kernel run of
 * `units` chunks per `go`, timed in the process with hrtime and reported as `kernel` (ms).
 */
export async function serveKernel(
  units: number,
  io: { input?: Readable; output?: Writable } = {},
): Promise<void> {
  checkUnits(units, '--units');
  runKernel(Math.min(units, 50)); // compile the loop before `ready`, so iteration 0 is not special
  await serve(() => void runKernel(units), { name: KERNEL_BENCHMARK, ...io });
}

/** One kernel run, as a jsonl record (the `jsonl` format reads it) plus steps and checksum. */
export function runKernelOnce(units: number): string {
  const start = process.hrtime.bigint();
  const result = runKernel(units);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  return `${JSON.stringify({ name: KERNEL_BENCHMARK, value: ms, unit: 'ms' })}\n${JSON.stringify({ units: result.units, steps: result.steps, checksum: result.checksum })}\n`;
}

/** Units from `--units N` or from a file holding one integer (relative to `cwd`). */
export async function resolveUnits(
  flags: { units?: number; unitsFile?: string },
  cwd: string,
): Promise<number> {
  if ((flags.units === undefined) === (flags.unitsFile === undefined)) {
    throw new UserError('give exactly one of --units <n> or --units-file <file>');
  }
  if (flags.units !== undefined) return flags.units;
  const file = path.resolve(cwd, flags.unitsFile!);
  const text = await readFile(file, 'utf8').catch((error: Error) => {
    throw new UserError(`--units-file ${flags.unitsFile}: cannot read it (${error.message})`);
  });
  const units = /^\s*\d+\s*$/.test(text) ? Number(text) : NaN;
  if (!(Number.isSafeInteger(units) && units >= 1)) {
    throw new UserError(
      `--units-file ${flags.unitsFile}: got ${JSON.stringify(text.trim().slice(0, 40))}; expected one positive integer`,
    );
  }
  return units;
}
