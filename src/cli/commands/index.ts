import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { registerAnalyze } from './analyze.js';
import { registerBisect } from './bisect.js';
import { registerCalibrate } from './calibrate.js';
import { registerCluster } from './cluster.js';
import { registerCompare } from './compare.js';
import { registerCompareSamples } from './compare-samples.js';
import { registerDoctor } from './doctor.js';
import { registerExport } from './export.js';
import { registerHistory } from './history.js';
import { registerInit } from './init.js';
import { registerNoise } from './noise.js';
import { registerParse } from './parse.js';
import { registerRun } from './run.js';
import { registerVariability } from './variability.js';
import { registerWorkload } from './workload.js';

/** Every CLI command, one line each. */
export function registerCommands(program: Command, ctx: CliContext): void {
  registerCompareSamples(program, ctx);
  registerParse(program, ctx);
  registerRun(program, ctx);
  registerAnalyze(program, ctx);
  registerCompare(program, ctx);
  registerBisect(program, ctx);
  registerExport(program, ctx);
  registerNoise(program, ctx);
  registerWorkload(program, ctx);
  registerCalibrate(program, ctx);
  registerInit(program, ctx);
  registerHistory(program, ctx);
  registerVariability(program, ctx);
  registerCluster(program, ctx);
  registerDoctor(program, ctx);
}
