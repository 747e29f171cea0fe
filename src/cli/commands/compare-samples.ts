import { STATISTICS } from '../../stats/types.js';
import type { Command } from 'commander';
import { readNumberFile } from '../../io/read-number-file.js';
import { renderComparisonTable } from '../../report/terminal.js';
import { createBootstrapPool } from '../../parallel/bootstrap-pool.js';
import { compareParallel } from '../../parallel/compare-parallel.js';
import { MAX_SEED, randomSeed } from '../../stats/rng.js';
import type { CompareOptions, IntervalMethod, Statistic } from '../../stats/types.js';
import type { CliContext } from '../context.js';
import { UserError } from '../errors.js';
import { choiceParser, integerParser, parseLevel, parseThreshold } from '../options.js';
import { basename, resolve } from 'node:path';

interface Flags {
  paired?: boolean;
  level: number;
  resamples: number;
  seed?: number;
  statistic?: Statistic;
  method: IntervalMethod;
  threshold: number;
  biggerIsBetter?: boolean;
  blockLength?: number;
  json?: boolean;
}

export function registerCompareSamples(program: Command, ctx: CliContext): void {
  program
    .command('compare-samples')
    .description(
      'Compare two files of measurements: relative change, bootstrap CI, rank test, verdict.',
    )
    .argument('<base-file>', 'base measurements: one number per line (# comments), or a JSON array')
    .argument('<head-file>', 'head measurements, same format')
    .option(
      '--paired',
      'values on the same line were measured together (duet iterations, RMIT rounds)',
    )
    .option('--level <level>', 'confidence level of the interval', parseLevel, 0.99)
    .option('--resamples <n>', 'bootstrap resamples', integerParser(100, 10_000_000), 10_000)
    .option(
      '--seed <n>',
      'PRNG seed (default: random, printed in the result)',
      integerParser(0, MAX_SEED),
    )
    .option(
      '--statistic <name>',
      'median|mean|gmean|trimmed (default: median; paired: trimmed, the 20% trimmed mean of the log pair ratios)',
      choiceParser(STATISTICS),
    )
    .option(
      '--method <name>',
      'interval method: percentile|bca',
      choiceParser(['percentile', 'bca'] as const),
      'bca',
    )
    .option('--threshold <t>', 'practical threshold, e.g. 5% or 0.05', parseThreshold, 0.05)
    .option(
      '--bigger-is-better',
      'larger values are better (throughput); flips regression/improvement',
    )
    .option(
      '--block-length <n>',
      'paired: moving-block length (default: chosen from the data)',
      integerParser(1, 1_000_000),
    )
    .option('--json', 'print the Comparison JSON instead of a table')
    .action(async (baseFile: string, headFile: string, flags: Flags) => {
      const base = readNumberFile(resolve(ctx.cwd, baseFile), 'base', baseFile);
      const head = readNumberFile(resolve(ctx.cwd, headFile), 'head', headFile);
      if (flags.paired === true && base.length !== head.length) {
        throw new UserError(
          `--paired needs files of equal length: ${baseFile} has ${base.length} values, ${headFile} has ${head.length}`,
        );
      }
      for (const [file, values] of [
        [baseFile, base],
        [headFile, head],
      ] as const) {
        if (values.length < 2)
          throw new UserError(`${file}: needs at least 2 values, found ${values.length}`);
      }
      const options: CompareOptions = {
        paired: flags.paired === true,
        level: flags.level,
        resamples: flags.resamples,
        seed: flags.seed ?? randomSeed(),
        method: flags.method,
        threshold: flags.threshold,
        biggerIsBetter: flags.biggerIsBetter === true,
        ...(flags.statistic === undefined ? {} : { statistic: flags.statistic }),
        ...(flags.blockLength === undefined ? {} : { blockLength: flags.blockLength }),
      };
      const pool = createBootstrapPool();
      const comparison = await compareParallel(base, head, options, pool).finally(() =>
        pool.close(),
      );
      if (flags.json === true) {
        ctx.stdout(`${JSON.stringify(comparison, null, 2)}\n`);
        return;
      }
      ctx.stdout(
        renderComparisonTable([
          { name: `${basename(headFile)} vs ${basename(baseFile)}`, unit: '', comparison },
        ]),
      );
    });
}
