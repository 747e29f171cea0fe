import { STATISTICS } from '../../stats/types.js';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { analyzeSamples, type AnalysisOverrides } from '../../analyze/analyze.js';
import { exitStatus, type FailOn } from '../../analyze/gate.js';
import { describeReport } from '../../report/terminal.js';
import { SAMPLES_SCHEMA_VERSION, type SamplesFile } from '../../contracts/samples.js';
import { MAX_SEED } from '../../stats/rng.js';
import type { CliContext } from '../context.js';
import { UserError } from '../errors.js';
import {
  choiceParser,
  collectThreshold,
  integerParser,
  parseLevel,
  type ThresholdOptions,
} from '../options.js';

interface Flags extends Omit<AnalysisOverrides, 'threshold' | 'thresholds'> {
  threshold?: ThresholdOptions;
  json?: boolean;
  out?: string;
  failOn: FailOn;
}

export function registerAnalyze(program: Command, ctx: CliContext): void {
  program
    .command('analyze')
    .description(
      'Re-analyse saved samples (another level, statistic, threshold...) without re-running.',
    )
    .argument('<samples>', 'samples.json written by duetkit run')
    .option('--level <level>', 'confidence level, e.g. 0.95 or 95%', parseLevel)
    .option(
      '--statistic <name>',
      'median|mean|gmean|trimmed (paired only)',
      choiceParser(STATISTICS),
    )
    .option('--method <name>', 'percentile|bca', choiceParser(['percentile', 'bca'] as const))
    .option(
      '--threshold <t>',
      'practical threshold, e.g. 5% or 0.05; of one kind of metric or benchmark, e.g. memory=5% time=2% (repeatable)',
      collectThreshold,
    )
    .option('--resamples <n>', 'bootstrap resamples', integerParser(100, 10_000_000))
    .option('--adjustment <name>', 'holm|bh|none', choiceParser(['holm', 'bh', 'none'] as const))
    .option('--block-length <n>', 'paired: moving-block length', integerParser(1, 1_000_000))
    .option('--seed <n>', "bootstrap seed (default: the run's)", integerParser(0, MAX_SEED))
    .option('--baseline <version>', 'version to compare the others against')
    .option('--out <file>', 'also write the comparison JSON to this file')
    .option('--json', 'print the comparison JSON instead of the report')
    .option(
      '--fail-on <what>',
      'exit 1 on: regression|inconclusive|never',
      choiceParser(['regression', 'inconclusive', 'never'] as const),
      'never',
    )
    .action(async (file: string, flags: Flags) => {
      const samples = await readSamples(path.resolve(ctx.cwd, file), file);
      const { json, out, failOn, threshold, ...rest } = flags;
      const report = analyzeSamples(samples, { ...rest, ...threshold });
      const text = `${JSON.stringify(report, null, 2)}\n`;
      if (out !== undefined) await writeFile(path.resolve(ctx.cwd, out), text);
      ctx.stdout(json === true ? text : describeReport(report));
      ctx.exitCode = exitStatus(report, failOn);
    });
}

async function readSamples(absolute: string, shown: string): Promise<SamplesFile> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(absolute, 'utf8'));
  } catch (error) {
    throw new UserError(`cannot read samples ${shown}: ${(error as Error).message}`);
  }
  const version = (data as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (version !== SAMPLES_SCHEMA_VERSION || !Array.isArray((data as SamplesFile).trials)) {
    throw new UserError(
      `${shown}: schemaVersion is ${JSON.stringify(version)}; expected a duetkit samples file with schemaVersion ${SAMPLES_SCHEMA_VERSION}`,
    );
  }
  return data as SamplesFile;
}
