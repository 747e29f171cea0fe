import type { Efficiency } from '../contracts/efficiency.js';

const pct = (x: number): string => `${(x * 100).toFixed(x < 0.1 ? 1 : 0)}%`;

/** One line on how much of the machine time measured something, for terminal and comment. */
export function efficiencyText(e: Efficiency): string {
  const pace = `${e.pairsPerSecond >= 10 ? e.pairsPerSecond.toFixed(0) : e.pairsPerSecond.toPrecision(2)} pairs/s`;
  if (e.efficiency === null || e.breakdown === null) {
    return `${pace} over ${e.machineSeconds.toFixed(1)} s of machine time (the format does not say how long it measured)`;
  }
  const b = e.breakdown;
  return `${pct(e.efficiency)} of the machine time measured (${e.format ?? 'wall time'}: ${e.measuredSeconds!.toFixed(1)} s of ${e.slots} × ${e.machineSeconds.toFixed(1)} s); the rest: preparing ${pct(b.preparation)}, between trials ${pct(b.harness)}, in the process but not measuring (start-up, the tool's calibration) ${pct(b.process)}; ${pace}`;
}
