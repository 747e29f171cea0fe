import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { registerAnalyze } from './analyze.js';
import { registerCompare } from './compare.js';
import { registerCompareSamples } from './compare-samples.js';
import { registerParse } from './parse.js';
import { registerRun } from './run.js';

/** Every CLI command, one line each. */
export function registerCommands(program: Command, ctx: CliContext): void {
  registerCompareSamples(program, ctx);
  registerParse(program, ctx);
  registerRun(program, ctx);
  registerAnalyze(program, ctx);
  registerCompare(program, ctx);
}
