/**
 * The accuracy benchmark: false-positive rate, power, CI width and time per comparison of
 * every method (duet isolated and not, rmit, mct, a github-action-benchmark-like fixed
 * threshold) on this machine, quiet and under `duetkit noise`. Method: BENCHMARKS.md.
 *
 *   node --import tsx benchmarks/accuracy.ts            # full run (about 1.5 h, needs a quiet machine and root for cpusets)
 *   node --import tsx benchmarks/accuracy.ts --quick    # smoke run, a few minutes
 *
 * Writes benchmarks/results/accuracy-{full,quick}.json and the results section of BENCHMARKS.md.
 * Options: --budget <s> --repetitions <n> --out <file> --no-markdown
 *   --command-only   measure only the command workload (a C program timed by the command
 *                    driver) and keep the stored reference-workload rows of <file>
 *
 *   node --import tsx benchmarks/accuracy.ts --render [--out <file>]
 *
 * measures nothing: it re-renders BENCHMARKS.md from stored results, with the ground truth
 * now in benchmarks/results/workload-ground-truth.json (measured after the run, say).
 */
import { positive } from './args.js';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { abortOnSignals } from '../src/runner/signals.js';
import { renderAccuracy, spliceResults } from './accuracy/report.js';
import {
  FULL,
  QUICK,
  readGroundTruth,
  runAccuracy,
  type AccuracyConfig,
  type AccuracyResults,
} from './accuracy/run.js';

const GROUND_TRUTH = 'benchmarks/results/workload-ground-truth.json';

async function main(argv: string[]): Promise<void> {
  const quick = argv.includes('--quick');
  const config: AccuracyConfig = { ...(quick ? QUICK : FULL) };
  const value = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i < 0 ? undefined : argv[i + 1];
  };
  if (value('--budget') !== undefined) config.budget = positive('--budget', value('--budget')!);
  if (value('--repetitions') !== undefined) {
    config.repetitions = Math.round(positive('--repetitions', value('--repetitions')!));
  }
  const out = value('--out') ?? `benchmarks/results/accuracy-${config.kind}.json`;
  if (value('--conditions') !== undefined) {
    const wanted = value('--conditions')!.split(',');
    const bad = wanted.find((c) => c !== 'quiet' && c !== 'noise');
    if (bad !== undefined)
      throw new RangeError(`--conditions: got ${bad}; expected quiet, noise or both`);
    config.conditions = wanted as AccuracyConfig['conditions'];
  }
  const groundTruth = await readGroundTruth(GROUND_TRUTH);
  if (argv.includes('--render')) {
    const stored = JSON.parse(await readFile(out, 'utf8')) as AccuracyResults;
    const truth = (change: number): number | null =>
      change === 0 ? 0 : (groundTruth?.changes[String(change)]?.measured ?? null);
    const results: AccuracyResults = {
      ...stored,
      groundTruth,
      conditions: stored.conditions.map((condition) => ({
        ...condition,
        cells: condition.cells.map((cell) => ({ ...cell, trueChange: truth(cell.change) })),
      })),
    };
    await writeFile(out, `${JSON.stringify(results, null, 2)}\n`);
    await writeMarkdown(renderAccuracy(results));
    console.error(`re-rendered from ${out}: BENCHMARKS.md`);
    return;
  }
  const { signal, dispose } = abortOnSignals();
  try {
    const started = Date.now();
    const commandOnly = argv.includes('--command-only');
    const referenceOnly = argv.includes('--reference-only');
    const measured = await runAccuracy(config, {
      groundTruth,
      signal,
      env: process.env,
      commandOnly,
      referenceOnly,
      log: (line) =>
        console.error(`[${((Date.now() - started) / 1000).toFixed(0).padStart(5)} s] ${line}`),
    });
    // --command-only: the stored reference-workload rows stay, the command rows are new;
    // --reference-only / --conditions: only the rows measured now are replaced.
    const results = commandOnly
      ? await mergeCommandRows(out, measured)
      : referenceOnly || value('--conditions') !== undefined
        ? await mergeRows(out, measured)
        : measured;
    await mkdir(path.dirname(out), { recursive: true });
    await writeFile(out, `${JSON.stringify(results, null, 2)}\n`);
    const section = renderAccuracy(results);
    process.stdout.write(section);
    if (!argv.includes('--no-markdown')) await writeMarkdown(section);
    console.error(`written: ${out}${argv.includes('--no-markdown') ? '' : ', BENCHMARKS.md'}`);
  } finally {
    dispose();
  }
}

async function writeMarkdown(section: string): Promise<void> {
  const document = await readFile('BENCHMARKS.md', 'utf8').catch(() => '# Benchmarks\n');
  await writeFile('BENCHMARKS.md', spliceResults(document, section));
}

await main(process.argv.slice(2));

/** The stored results with their command-workload rows replaced by freshly measured ones. */
async function mergeCommandRows(file: string, fresh: AccuracyResults): Promise<AccuracyResults> {
  const stored = JSON.parse(await readFile(file, 'utf8')) as AccuracyResults;
  return {
    ...stored,
    config: { ...stored.config, command: fresh.config.command },
    commandTruth: fresh.commandTruth ?? null,
    conditions: [
      ...stored.conditions.filter((c) => c.workload.kind !== 'custom'),
      ...fresh.conditions,
    ],
  };
}

/** The stored results with the rows of the conditions and workloads measured now replaced. */
async function mergeRows(file: string, fresh: AccuracyResults): Promise<AccuracyResults> {
  const stored = JSON.parse(await readFile(file, 'utf8')) as AccuracyResults;
  const key = (c: AccuracyResults['conditions'][number]) => `${c.condition}|${c.workload.kind}`;
  const replaced = new Set(fresh.conditions.map(key));
  return {
    ...stored,
    config: {
      ...stored.config,
      budget: fresh.config.budget,
      repetitions: fresh.config.repetitions,
    },
    date: fresh.date,
    conditions: [...stored.conditions.filter((c) => !replaced.has(key(c))), ...fresh.conditions],
  };
}
