import type { SamplesFile } from '../contracts/samples.js';
import type { RatioInterval } from '../stats/contribution.js';
import { analyzeSamples } from './analyze.js';

/** The name the whole command's CPU time is compared under (never a benchmark's). */
const COMMAND = '(command cpu time)';

/**
 * Head's CPU time of the whole command over base's, per head version, with its interval:
 * the measured pairs' `cpuMs` (the timer's, spawn to exit) compared exactly as a benchmark is
 * (the run's settings, level and method). The differential's time ratio when a profiled
 * process ran every benchmark the command reports (docs/explain.md): a format's program that
 * prints several results runs them all in one process, and one benchmark's ratio is not the
 * process's. Empty when the trials have no CPU time (other drivers, older samples) or the
 * comparison has no interval.
 */
export function commandTimeRatios(samples: SamplesFile): Record<string, RatioInterval> {
  const trials = samples.trials.filter((t) => t.cpuMs !== undefined);
  if (trials.length === 0 || trials.length !== samples.trials.length) return {};
  const report = analyzeSamples({
    ...samples,
    trials: trials.map((t) => ({
      ...t,
      metrics: [
        {
          name: COMMAND,
          unit: 'ms',
          biggerIsBetter: false,
          values: [t.cpuMs!],
          valueKind: 'samples' as const,
        },
      ],
    })),
  });
  const ratios: Record<string, RatioInterval> = {};
  for (const result of report.results) {
    const c = result.comparison;
    if (c === null || !(c.ci.lower > -1)) continue;
    const estimate = 1 + c.change;
    ratios[result.version] = {
      estimate,
      lower: Math.min(estimate, 1 + c.ci.lower),
      upper: Math.max(estimate, 1 + c.ci.upper),
      level: c.ci.sequential?.lookLevel ?? c.ci.level,
    };
  }
  return ratios;
}
