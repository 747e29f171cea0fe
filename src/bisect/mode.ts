/**
 * Which instrument a bisection probes with, when it may choose (`--mode auto`): both designs
 * measure good against bad once, and the one that pins a change more precisely per second
 * of machine time probes the range. Pure.
 */

import type { BisectMode, ModeTrial } from '../contracts/bisect.js';

/**
 * Precision per unit of time: the interval's half-width in log space times the square root
 * of the seconds it took. Half-widths shrink as 1/√(pairs) and pairs cost time, so this is
 * the half-width one second of the design would give; smaller is better.
 */
export function modeCost(trial: ModeTrial): number {
  const half = (Math.log1p(trial.upper) - Math.log1p(trial.lower)) / 2;
  return half * Math.sqrt(Math.max(trial.seconds, 1e-9));
}

/**
 * The design that probes: RMIT when its cost is lower than the duet's, else the duet (a tie
 * keeps the duet, which uses both CPUs). A non-finite interval is the worst cost.
 */
export function chooseMode(trials: Readonly<Record<BisectMode, ModeTrial>>): BisectMode {
  const cost = (m: BisectMode) => {
    const c = modeCost(trials[m]);
    return Number.isFinite(c) ? c : Infinity;
  };
  return cost('rmit') < cost('duet') ? 'rmit' : 'duet';
}

/**
 * Whether the other design is worth a try after the chosen one could not settle good against
 * bad: only when the choice was close, the other's cost within twice the chosen one's. On a
 * 2-vCPU VM, duets chosen at costs 1.6× below RMIT's could not settle, and RMIT then found the
 * commit; RMIT searches that could not settle handed over to duets 4–7× worse, which named
 * nothing (BENCHMARKS.md).
 */
export function worthSwitching(choice: {
  trials: Readonly<Record<BisectMode, ModeTrial>>;
  chosen: BisectMode;
}): boolean {
  const other: BisectMode = choice.chosen === 'duet' ? 'rmit' : 'duet';
  const chosen = modeCost(choice.trials[choice.chosen]);
  const alternative = modeCost(choice.trials[other]);
  return Number.isFinite(alternative) && alternative < CLOSE * chosen;
}

/** A choice is close when the other design's cost is below this multiple of the chosen one's. */
const CLOSE = 2;
