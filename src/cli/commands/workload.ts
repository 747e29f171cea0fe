import type { Command } from 'commander';
import { resolveUnits, runKernelOnce, serveKernel } from '../../workload/program.js';
import type { CliContext } from '../context.js';
import { integerParser } from '../options.js';

interface WorkloadFlags {
  units?: number;
  unitsFile?: string;
  serve?: boolean;
}

export function registerWorkload(program: Command, ctx: CliContext): void {
  program
    .command('workload')
    .description(
      "duetkit's reference workload: a deterministic CPU-bound kernel of N identical chunks (used by `duetkit calibrate`).",
    )
    .option('--units <n>', 'chunks of work per run', integerParser(1, 1_000_000_000))
    .option('--units-file <file>', 'read the chunks from a file holding one integer')
    .option('--serve', 'serve the persistent-process protocol (docs/protocol.md) on stdin/stdout')
    .action(async (flags: WorkloadFlags) => {
      const units = await resolveUnits(flags, ctx.cwd);
      if (flags.serve === true) await serveKernel(units);
      else ctx.stdout(runKernelOnce(units));
    });
}
