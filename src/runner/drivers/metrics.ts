import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { parseOutput } from '../../formats/registry.js';
import type { Workload } from '../../scenario/schema.js';
import type { TrialMetric } from '../../contracts/samples.js';

/** How long one run of a command took: its wall time and, where the timer took it, CPU time. */
export interface CommandTimes {
  wallMs: number;
  /** User + system, the command's own and its waited-for children's; undefined without it. */
  cpuMs?: number;
}

/** The benchmark names of a command's times (`workload.metric`), from `workload.name`. */
export function timeMetricNames(workload: Workload): { wall: string; cpu: string } {
  if (workload.name === undefined) return { wall: 'wall-time', cpu: 'cpu-time' };
  return {
    wall: workload.name,
    cpu: workload.metric === 'cpu' ? workload.name : `${workload.name} (cpu)`,
  };
}

/**
 * The metrics of one iteration: the command's times (`workload.metric`) when the workload
 * names no format, else whatever the format reads from the output. Throws the format's error
 * when it finds nothing (a benchmark without values must fail the run, never pass silently).
 */
export function iterationMetrics(
  workload: Workload,
  times: CommandTimes,
  output: string,
  cwd: string,
): TrialMetric[] {
  if (workload.format === undefined) {
    const names = timeMetricNames(workload);
    const metric = (name: string, value: number): TrialMetric => ({
      name,
      unit: 'ms',
      biggerIsBetter: false,
      values: [value],
      valueKind: 'samples',
    });
    const metrics: TrialMetric[] = [];
    if (workload.metric !== 'cpu') metrics.push(metric(names.wall, times.wallMs));
    if (workload.metric !== 'wall') {
      if (times.cpuMs === undefined) {
        throw new Error(
          `workload.metric ${workload.metric} needs the command's CPU time, which only duetkit's timer takes`,
        );
      }
      metrics.push(metric(names.cpu, times.cpuMs));
    }
    return metrics;
  }
  return parseOutput(workload.format, output, { cwd }).map((b) => ({
    name: b.name,
    unit: b.unit,
    biggerIsBetter: b.biggerIsBetter,
    values: b.values,
    valueKind: b.valueKind,
    ...(b.measuredNs === undefined ? {} : { measuredNs: b.measuredNs }),
    ...(b.derivedFrom === undefined ? {} : { derivedFrom: b.derivedFrom }),
  }));
}

/** Removes `workload.output` before an iteration, so a file left by the last one is never read. */
export async function clearOutputFile(workload: Workload, cwd: string): Promise<void> {
  if (workload.output !== undefined) await rm(path.resolve(cwd, workload.output), { force: true });
}

/**
 * What the format reads: `workload.output` when the tool writes a file, else its stdout.
 * `movedTo`: where the timer moved that file right after the measured run (so the extra runs
 * that keep a duet's CPU busy cannot overwrite it), or null when it stayed in place.
 */
export async function readIterationOutput(
  workload: Workload,
  stdout: string,
  cwd: string,
  movedTo: string | null = null,
): Promise<string> {
  if (workload.output === undefined) return stdout;
  const file = path.resolve(cwd, workload.output);
  try {
    return await readFile(movedTo ?? file, 'utf8');
  } catch (error) {
    throw new Error(
      `workload.output ${file} could not be read after the command exited (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); the command must write it on every run`,
    );
  } finally {
    if (movedTo !== null) await rm(movedTo, { force: true });
  }
}

export function nsToMs(ns: bigint): number {
  return Number(ns) / 1e6;
}
