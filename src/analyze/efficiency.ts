import type { Efficiency } from '../contracts/efficiency.js';
import type { SamplesFile } from '../contracts/samples.js';
import { pairsPerRound } from './round-pairs.js';
import { getMode } from '../runner/modes/registry.js';

/**
 * The efficiency of a run: measured time ÷ machine time, from the trials' wall times and
 * what the format says it measured (go: b.N × ns/op; criterion: its samples' times;
 * pytest-benchmark: rounds × iterations × time). Without a format, the measured time is the
 * command's wall time. Pure.
 */
export function efficiencyOf(samples: SamplesFile): Efficiency {
  const machineSeconds = Math.max(
    1e-9,
    (Date.parse(samples.finishedAt) - Date.parse(samples.startedAt)) / 1000,
  );
  const mode = getMode(samples.mode);
  const slots = Math.max(
    1,
    mode.slotCount(samples.versions.length) > 1 ? samples.versions.length : 1,
  );
  const trials = samples.trials;
  const first = Math.min(...trials.map((t) => t.startMs));
  const last = Math.max(...trials.map((t) => t.endMs));
  const measuringSeconds = trials.length === 0 ? 0 : (last - first) / 1000;
  let trialSeconds = 0;
  let measured = 0;
  let told = false;
  for (const t of trials) {
    trialSeconds += t.wallMs / 1000;
    for (const m of t.metrics) {
      if (m.measuredNs !== undefined) {
        measured += m.measuredNs / 1e9;
        told = true;
      }
    }
  }
  const format = samples.scenario?.workload?.format ?? null;
  if (format === null) {
    measured = trialSeconds;
    told = true;
  }
  const capacity = slots * machineSeconds;
  const pairs = [...pairsPerRound(trials).values()].reduce((a, n) => a + n, 0);
  const measuredSeconds = told ? measured : null;
  return {
    format,
    machineSeconds,
    measuringSeconds,
    slots,
    trialSeconds,
    measuredSeconds,
    efficiency: measuredSeconds === null ? null : measuredSeconds / capacity,
    breakdown:
      measuredSeconds === null
        ? null
        : {
            preparation: Math.max(0, (machineSeconds - measuringSeconds) * slots) / capacity,
            harness: Math.max(0, measuringSeconds * slots - trialSeconds) / capacity,
            process: Math.max(0, trialSeconds - measuredSeconds) / capacity,
            measured: measuredSeconds / capacity,
          },
    pairsPerSecond: (mode.paired ? pairs : trials.length) / machineSeconds,
  };
}
