/**
 * Why a duet's pairs scatter: one duet A/A recording of the reference workload (the same
 * version on both sides), quiet or under `duetkit noise`, with or without the CPU weight,
 * and what it shows about the pairs: the spread of the log pair ratios, how often each side
 * (and both at once) ran > 10% slower than its median, the correlation of the two sides,
 * the median log ratio per CPU assignment, and the 99% CI width of the median and of the
 * geometric mean of the pair ratios over consecutive windows of `--window` pairs.
 *
 *   node --import tsx benchmarks/duet-diagnosis.ts [--seconds 30] [--window 200]
 *        [--noise 2] [--noise-load 0.5] [--no-weight] [--isolation cpuset] [--json]
 *
 * Needs root for cgroups. Prints one table; --json prints the figures as JSON instead.
 */
import { positive } from './args.js';
import { renderDiagnosis, runDiagnosis } from './duet-diagnosis/diagnose.js';
import type { IsolationRequest } from '../src/contracts/isolation.js';
import { abortOnSignals } from '../src/runner/signals.js';

async function main(argv: string[]): Promise<void> {
  const value = (flag: string, fallback: string): string => {
    const i = argv.indexOf(flag);
    return i < 0 ? fallback : argv[i + 1]!;
  };
  const seconds = positive('--seconds', value('--seconds', '30'));
  const windowPairs = Math.round(positive('--window', value('--window', '200')));
  const { signal, dispose } = abortOnSignals();
  try {
    const result = await runDiagnosis({
      seconds,
      windowPairs,
      noiseThreads: Number(value('--noise', '0')),
      noiseLoad: positive('--noise-load', value('--noise-load', '0.5')),
      cpuWeight: !argv.includes('--no-weight'),
      isolation: value('--isolation', 'cpuset') as IsolationRequest,
      signal,
    });
    console.log(
      argv.includes('--json')
        ? JSON.stringify(result, null, 2)
        : renderDiagnosis(result, seconds, windowPairs),
    );
  } finally {
    dispose();
  }
}

await main(process.argv.slice(2));
