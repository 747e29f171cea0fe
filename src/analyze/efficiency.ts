import type { SamplesFile } from '../runner/samples.js';
import { pairsPerRound } from './round-pairs.js';
import { getMode } from '../runner/modes/registry.js';

/**
 * Where a run's machine time went: how much of it the benchmark tool itself says it spent
 * measuring. Plain data in comparison.json; every share is of the run's whole duration.
 */
export interface Efficiency {
  /** The format whose measured time this is (null: the command's wall time was the metric). */
  format: string | null;
  /** The run's duration, start to end, s (set-up, build and calibration included). */
  machineSeconds: number;
  /** From the first trial's start to the last one's end, s. */
  measuringSeconds: number;
  /** CPU slots measured at once (2 in a duet, 1 in rmit). */
  slots: number;
  /** Σ of the trials' wall times, s. */
  trialSeconds: number;
  /** Σ of what the tool says it measured, s (null when it does not say). */
  measuredSeconds: number | null;
  /** measured ÷ (slots × machine time): the headline figure. */
  efficiency: number | null;
  /** Shares of slots × machine time: before measuring (set-up, build, calibration), between trials (harness, warm-up included), in the process but not measuring (start, the tool's own calibration and overhead), measuring. */
  breakdown: { preparation: number; harness: number; process: number; measured: number } | null;
  /** Measured pairs (paired modes) or trials per second of machine time. */
  pairsPerSecond: number;
}

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
