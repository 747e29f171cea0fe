import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { parseOutput } from '../../formats/registry.js';
import type { Workload } from '../../scenario/schema.js';
import type { TrialMetric } from '../samples.js';

/**
 * The metrics of one iteration: the harness's wall time when the workload names no format,
 * else whatever the format reads from the output. Throws the format's error when it finds
 * nothing (a benchmark without values must fail the run, never pass silently).
 */
export function iterationMetrics(
  workload: Workload,
  wallMs: number,
  output: string,
  cwd: string,
): TrialMetric[] {
  if (workload.format === undefined) {
    return [
      {
        name: workload.name,
        unit: 'ms',
        biggerIsBetter: false,
        values: [wallMs],
        valueKind: 'samples',
      },
    ];
  }
  return parseOutput(workload.format, output, { cwd }).map((b) => ({
    name: b.name,
    unit: b.unit,
    biggerIsBetter: b.biggerIsBetter,
    values: b.values,
    valueKind: b.valueKind,
  }));
}

/** Removes `workload.output` before an iteration, so a file left by the last one is never read. */
export async function clearOutputFile(workload: Workload, cwd: string): Promise<void> {
  if (workload.output !== undefined) await rm(path.resolve(cwd, workload.output), { force: true });
}

/** What the format reads: `workload.output` when the tool writes a file, else its stdout. */
export async function readIterationOutput(
  workload: Workload,
  stdout: string,
  cwd: string,
): Promise<string> {
  if (workload.output === undefined) return stdout;
  const file = path.resolve(cwd, workload.output);
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new Error(
      `workload.output ${file} could not be read after the command exited (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); the command must write it on every run`,
    );
  }
}

export function nsToMs(ns: bigint): number {
  return Number(ns) / 1e6;
}
