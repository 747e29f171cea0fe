import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { parseOutput } from '../../formats/registry.js';
import type { Workload } from '../../scenario/schema.js';
import type { TrialMetric } from '../../contracts/samples.js';
import type { Measure } from '../../scenario/metric-list.js';

/** One run of a command: its wall time and, where the timer took them, CPU time and peak RSS. */
export interface CommandTimes {
  wallMs: number;
  /** User + system, the command's own and its waited-for children's; undefined without it. */
  cpuMs?: number;
  /** Peak resident set size of this run (wait4's ru_maxrss of this child), KiB. */
  rssKb?: number;
}

const DEFAULT_NAMES: Record<Measure, string> = {
  wall: 'wall-time',
  cpu: 'cpu-time',
  rss: 'peak-rss',
};

/**
 * The benchmark name of each measure of `workload.metric`: `wall-time`, `cpu-time`,
 * `peak-rss`; with `workload.name`, the first measure of the list is that name and the others
 * are the name followed by ` (cpu)`, ` (rss)` or ` (wall)`.
 */
export function metricNames(workload: Workload): Record<Measure, string> {
  const name = workload.name;
  if (name === undefined) return DEFAULT_NAMES;
  const first = workload.metric[0];
  const of = (m: Measure): string => (m === first ? name : `${name} (${m})`);
  return { wall: of('wall'), cpu: of('cpu'), rss: of('rss') };
}

/**
 * The metrics of one iteration: the command's measures (`workload.metric`) when the workload
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
    const names = metricNames(workload);
    const value = (m: Measure): number => {
      const v = m === 'wall' ? times.wallMs : m === 'cpu' ? times.cpuMs : times.rssKb;
      if (v === undefined) {
        throw new Error(
          `workload.metric ${m} needs the command's ${m === 'cpu' ? 'CPU time' : 'peak RSS'}, which only duetkit's timer takes`,
        );
      }
      return v;
    };
    return workload.metric.map((m) => ({
      name: names[m],
      unit: m === 'rss' ? 'KiB' : 'ms',
      biggerIsBetter: false,
      values: [value(m)],
      valueKind: 'samples',
    }));
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
