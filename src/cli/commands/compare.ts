import type { Command } from 'commander';
import { ScenarioError, scenarioFromObject } from '../../scenario/load.js';
import { MODES } from '../../scenario/schema.js';
import type { CliContext } from '../context.js';
import {
  choiceParser,
  collectThreshold,
  integerParser,
  optionParser,
  parseLevel,
  type ThresholdOptions,
} from '../options.js';
import { parseMetricList, type Measure } from '../../scenario/metric-list.js';
import { addRunOptions, executeRun, type RunFlags } from './run.js';

interface Flags extends RunFlags {
  base: string;
  head: string;
  mode: (typeof MODES)[number];
  iterations?: number;
  warmup?: number;
  format?: string;
  setup?: string;
  timeout?: string;
  isolation?: 'auto' | 'cpuset' | 'taskset' | 'none';
  level?: number;
  threshold?: ThresholdOptions;
  metric?: Measure[];
}

export function registerCompare(program: Command, ctx: CliContext): void {
  const command = program
    .command('compare')
    .description(
      'Compare two git refs of this repository with a command, without a scenario file: duetkit compare --base main --head HEAD -- npm run bench',
    )
    .requiredOption('--base <ref>', 'git ref of the baseline (e.g. main, origin/main, a commit)')
    .requiredOption('--head <ref>', 'git ref of the version under test (e.g. HEAD)')
    .option('--mode <mode>', MODES.join('|'), choiceParser(MODES), 'duet')
    .option('--iterations <n>', 'measured iterations (rounds)', integerParser(1, 1_000_000))
    .option('--warmup <n>', 'warm-up iterations, discarded', integerParser(0, 1_000_000))
    .option('--format <name>', 'read the metrics from the output (default: wall time)')
    .option(
      '--metric <list>',
      'without --format, what is measured: wall, cpu, rss, both, or a list like wall,rss',
      optionParser(parseMetricList),
    )
    .option('--setup <command>', 'build command run in each checkout first')
    .option('--timeout <duration>', 'per-iteration time limit, e.g. 60s')
    .option(
      '--isolation <kind>',
      'auto|cpuset|taskset|none',
      choiceParser(['auto', 'cpuset', 'taskset', 'none'] as const),
    )
    .option('--level <level>', 'confidence level, e.g. 0.99', parseLevel)
    .option(
      '--threshold <t>',
      'practical threshold, e.g. 5%; of one kind of metric or benchmark, e.g. memory=5% (repeatable)',
      collectThreshold,
    )
    .argument('<command...>', 'the benchmark command, after --');
  addRunOptions(command).action(async (argv: string[], flags: Flags) => {
    const scenario = scenarioFromObject(
      {
        name: `${flags.head} vs ${flags.base}`,
        mode: flags.mode,
        versions: [
          {
            name: 'base',
            ref: flags.base,
            ...(flags.setup === undefined ? {} : { setup: flags.setup }),
          },
          {
            name: 'head',
            ref: flags.head,
            ...(flags.setup === undefined ? {} : { setup: flags.setup }),
          },
        ],
        workload: {
          command: argv,
          ...(flags.format === undefined ? {} : { format: flags.format }),
          ...(flags.metric === undefined ? {} : { metric: flags.metric }),
        },
        ...(flags.iterations === undefined ? {} : { iterations: flags.iterations }),
        ...(flags.warmup === undefined ? {} : { warmup: flags.warmup }),
        ...(flags.timeout === undefined ? {} : { timeout: flags.timeout }),
        ...(flags.isolation === undefined ? {} : { isolation: flags.isolation }),
        analysis: {
          ...(flags.level === undefined ? {} : { level: flags.level }),
          ...flags.threshold,
        },
      },
      'the compare options',
    );
    if (argv.length === 0) throw new ScenarioError('compare needs a command after --');
    await executeRun({ scenario, file: null, baseDir: ctx.cwd }, flags, ctx);
  });
}
