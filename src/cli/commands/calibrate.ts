import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { calibrate, type CalibrateOptions } from '../../calibrate/calibrate.js';
import { METHOD_NAMES, parseMethods, type MethodName } from '../../calibrate/methods.js';
import { renderCalibration } from '../../calibrate/render.js';
import { ISOLATIONS } from '../../scenario/schema.js';
import { loadScenarioFile } from '../../scenario/load.js';
import { abortOnSignals } from '../../runner/signals.js';
import { MAX_SEED, randomSeed } from '../../stats/rng.js';
import { NOISE_KINDS, type NoiseKind } from '../../noise/options.js';
import type { IsolationRequest } from '../../contracts/isolation.js';
import type { CliContext } from '../context.js';
import {
  choiceParser,
  integerParser,
  parseLevel,
  parseSeconds,
  parseThreshold,
} from '../options.js';

interface CalibrateFlags {
  modes: MethodName[];
  changes: number[];
  repetitions: number;
  perRun: number;
  budget: number;
  units: number;
  isolation: IsolationRequest;
  noise?: number;
  noiseLoad: number;
  noiseKind: NoiseKind;
  level: number;
  resamples: number;
  seed?: number;
  targetMde: number;
  scenario?: string;
  json?: boolean;
}

export function registerCalibrate(program: Command, ctx: CliContext): void {
  program
    .command('calibrate')
    .description(
      'What can this machine detect? Runs A/A and injected-slowdown comparisons of a reference workload (or A/A of --scenario) and reports the false-positive rate, power, CI width, MDE and a recommended budget.',
    )
    .option('--modes <list>', `methods: ${METHOD_NAMES.join(', ')}`, parseModes, ['duet', 'rmit'])
    .option(
      '--changes <list>',
      'injected slowdowns, like 1%,2%,5%',
      parseChanges,
      [0.01, 0.02, 0.05],
    )
    .option('--repetitions <n>', 'comparisons per method and change', integerParser(1, 10_000), 20)
    .option('--per-run <n>', 'comparisons cut from one recording', integerParser(1, 1000), 5)
    .option('--budget <time>', 'time budget of one comparison: 10s, 1m', parseSeconds, 10)
    .option(
      '--units <n>',
      'chunks of the reference workload per iteration',
      integerParser(1, 1e9),
      1000,
    )
    .option(
      '--isolation <kind>',
      `of the duet method: ${ISOLATIONS.join(' | ')}`,
      choiceParser(ISOLATIONS),
      'auto',
    )
    .option(
      '--noise <threads>',
      'run `duetkit noise` with this many threads meanwhile',
      integerParser(1, 1024),
    )
    .option('--noise-load <share>', 'share of a CPU per noise thread', parseShare, 0.5)
    .option('--noise-kind <kind>', NOISE_KINDS.join(' | '), choiceParser(NOISE_KINDS), 'cpu')
    .option('--level <level>', 'confidence level of each comparison', parseLevel, 0.99)
    .option(
      '--resamples <n>',
      'bootstrap resamples per comparison',
      integerParser(100, 1_000_000),
      10_000,
    )
    .option('--seed <n>', 'PRNG seed (recorded)', integerParser(0, MAX_SEED))
    .option(
      '--target-mde <change>',
      'smallest change you want to detect, like 2%',
      parseThreshold,
      0.02,
    )
    .option('--scenario <file>', "A/A of your own scenario's first version (no injection)")
    .option('--json', 'print the result as JSON')
    .action(async (flags: CalibrateFlags) => {
      const { signal, dispose } = abortOnSignals();
      try {
        const options: CalibrateOptions = {
          methods: flags.modes,
          changes: flags.changes,
          windows: flags.repetitions,
          windowsPerRun: Math.min(flags.perRun, flags.repetitions),
          budget: flags.budget,
          units: flags.units,
          isolation: flags.isolation,
          noise:
            flags.noise === undefined
              ? null
              : { threads: flags.noise, load: flags.noiseLoad, kind: flags.noiseKind },
          condition: flags.noise === undefined ? 'quiet' : 'noise',
          level: flags.level,
          resamples: flags.resamples,
          seed: flags.seed ?? randomSeed(),
          targetMde: flags.targetMde,
          signal,
          env: ctx.env,
          log: (line) => ctx.stderr(`${line}\n`),
          ...(flags.scenario === undefined
            ? {}
            : { scenario: await loadScenarioFile(flags.scenario, ctx.cwd) }),
        };
        const result = await calibrate(options);
        ctx.stdout(
          flags.json === true ? `${JSON.stringify(result, null, 2)}\n` : renderCalibration(result),
        );
      } finally {
        dispose();
      }
    });
}

function parseModes(text: string): MethodName[] {
  try {
    return parseMethods(text);
  } catch (error) {
    throw new InvalidArgumentError(`${(error as Error).message.replace(/^--modes: /, '')}.`);
  }
}

function parseChanges(text: string): number[] {
  return text.split(',').map((part) => {
    const value = parseThreshold(part);
    if (!(value > 0))
      throw new InvalidArgumentError(`Expected positive slowdowns like 1%,2%,5%; got ${part}.`);
    return value;
  });
}

function parseShare(text: string): number {
  const value = Number(text);
  if (!(value > 0 && value <= 1))
    throw new InvalidArgumentError('Expected a share of one CPU in (0, 1], like 0.5.');
  return value;
}
