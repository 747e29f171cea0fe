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
    return [{ name: workload.name, unit: 'ms', biggerIsBetter: false, values: [wallMs] }];
  }
  return parseOutput(workload.format, output, { cwd }).map((b) => ({
    name: b.name,
    unit: b.unit,
    biggerIsBetter: b.biggerIsBetter,
    values: b.values,
  }));
}

export function nsToMs(ns: bigint): number {
  return Number(ns) / 1e6;
}
