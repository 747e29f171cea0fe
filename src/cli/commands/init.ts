import path from 'node:path';
import type { Command } from 'commander';
import {
  DEFAULT_BUDGET,
  DEFAULT_ITERATIONS,
  DEFAULT_SCENARIO,
  planInit,
  writeInit,
} from '../../init/init.js';
import { terminalPrompter } from '../../init/prompt.js';
import { createRepoProbe } from '../../init/repo.js';
import { createBenchmarkLister } from '../../init/list-benchmarks.js';
import { describeInit } from '../../init/summary.js';
import { toolNames } from '../../init/tools.js';
import { DEFAULT_ACTION } from '../../init/workflow-file.js';
import type { CliContext } from '../context.js';
import { integerParser } from '../options.js';

interface InitFlags {
  dir?: string;
  tool?: string;
  command?: string;
  setup?: string;
  format?: string;
  scenario: string;
  workflow: boolean;
  forkSafe?: boolean;
  nightly?: boolean;
  action: string;
  iterations: number;
  budget: string;
  force?: boolean;
  dryRun?: boolean;
  input: boolean;
}

export function registerInit(program: Command, ctx: CliContext): void {
  program
    .command('init')
    .description(
      'Detect the benchmark tool of a repository and write a starter scenario and GitHub workflow (docs/init.md).',
    )
    .option('--dir <dir>', 'the repository, or a project directory inside it (default: here)')
    .option('--tool <name>', `when several tools (or none) are found: ${toolNames().join('|')}`)
    .option(
      '--command <cmd>',
      "a plain command, measured by its wall time; with --tool, replaces the tool's command",
    )
    .option('--setup <cmd>', 'build command run once in each version before measuring')
    .option('--format <name>', "how to read the command's output (docs/formats.md)")
    .option('--scenario <path>', 'the scenario file to write, relative to --dir', DEFAULT_SCENARIO)
    .option('--fork-safe', 'write the two-workflow pair that comments on PRs from forks')
    .option('--nightly', 'also write the nightly variability workflow (docs/variability.md)')
    .option('--no-workflow', 'write the scenario only')
    .option('--action <ref>', 'the duetkit action the workflow uses', DEFAULT_ACTION)
    .option(
      '--iterations <n>',
      'pairs per benchmark',
      integerParser(1, 1_000_000),
      DEFAULT_ITERATIONS,
    )
    .option('--budget <duration>', 'time limit of the measurement, e.g. 10m', DEFAULT_BUDGET)
    .option('--force', 'replace files that exist')
    .option('--dry-run', 'print the files instead of writing them')
    .option('--no-input', 'never ask, even on a terminal')
    .action(async (flags: InitFlags) => {
      const prompter = flags.input && ctx.isTTY ? terminalPrompter() : null;
      let planned;
      try {
        planned = await planInit(
          {
            ...flags,
            dir: path.resolve(ctx.cwd, flags.dir ?? '.'),
            forkSafe: flags.forkSafe === true,
          },
          { repo: createRepoProbe(), prompter, list: createBenchmarkLister() },
        );
      } finally {
        prompter?.close();
      }
      if (flags.dryRun !== true) await writeInit(planned, { force: flags.force === true });
      ctx.stdout(describeInit(planned, ctx.cwd, flags.dryRun === true));
    });
}
