/**
 * Measured ground truth of the reference workload: how much slower W·(1+δ) chunks really run
 * than W, for δ = 1%, 2%, 5%. One long RMIT recording (every round runs each version once, in
 * a random order, on the same CPU set) with the persistent server; per change, the median of
 * the per-round ratios (duetkit's default paired statistic) with its 99% bootstrap CI. Run it
 * on a quiet machine:
 *
 *   node --import tsx benchmarks/workload-ground-truth.ts [--seconds 900] [--units 1000]
 *
 * Writes benchmarks/results/workload-ground-truth.json, which the accuracy benchmark reads.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { referenceSource } from '../src/calibrate/record.js';
import { traceFromSamples } from '../src/calibrate/trace.js';
import { abortOnSignals } from '../src/runner/signals.js';
import { compare } from '../src/stats/compare.js';
import { injectedUnits } from '../src/workload/kernel.js';
import type { GroundTruth } from './accuracy/run.js';

const CHANGES = [0.01, 0.02, 0.05];
const OUT = 'benchmarks/results/workload-ground-truth.json';

async function main(argv: string[]): Promise<void> {
  const value = (flag: string, fallback: number): number => {
    const i = argv.indexOf(flag);
    const x = i < 0 ? fallback : Number(argv[i + 1]);
    if (!(x > 0)) throw new RangeError(`${flag}: got ${argv[i + 1]}; expected a positive number`);
    return x;
  };
  const seconds = value('--seconds', 900);
  const units = Math.round(value('--units', 1000));
  const source = await referenceSource([
    { name: 'base', units },
    ...CHANGES.map((c) => ({ name: `plus-${c}`, units: injectedUnits(units, c) })),
  ]);
  const { signal, dispose } = abortOnSignals();
  try {
    const samples = await source.record(
      { mode: 'rmit', isolation: 'auto', budgetSeconds: seconds, seed: 7 },
      signal,
      process.env,
    );
    const trace = traceFromSamples(samples);
    const base = trace.rounds.map((r) => r.values[0]!);
    const truth: GroundTruth = {
      date: new Date().toISOString(),
      units,
      rounds: trace.rounds.length,
      changes: {},
    };
    CHANGES.forEach((change, i) => {
      const head = trace.rounds.map((r) => r.values[i + 1]!);
      const c = compare(base, head, { paired: true, level: 0.99, seed: 1 });
      truth.changes[String(change)] = { measured: c.change, lower: c.ci.lower, upper: c.ci.upper };
      console.log(
        `+${change * 100}% work (${injectedUnits(units, change)} vs ${units} chunks): measured ${(c.change * 100).toFixed(3)}% [${(c.ci.lower * 100).toFixed(3)}, ${(c.ci.upper * 100).toFixed(3)}] (99% CI, ${trace.rounds.length} rounds, isolation ${samples.isolation.kind})`,
      );
    });
    await mkdir('benchmarks/results', { recursive: true });
    await writeFile(OUT, `${JSON.stringify(truth, null, 2)}\n`);
    console.log(`written: ${OUT}`);
  } finally {
    dispose();
    await source.dispose();
  }
}

await main(process.argv.slice(2));
