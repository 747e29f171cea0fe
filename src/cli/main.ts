import { Command, CommanderError } from 'commander';
import type { CliContext } from './context.js';
import { isUserFacing } from './errors.js';
import { registerCommands } from './commands/index.js';
import { VERSION } from '../version.js';

/**
 * Builds the `duetkit` program. Each command lives in its own file under `commands/` and is
 * listed once in `commands/index.ts`.
 */
export function buildProgram(ctx: CliContext): Command {
  const program = new Command('duetkit')
    .description(
      'Benchmark verdicts you can trust on noisy machines: duet and RMIT runs, paired bootstrap confidence intervals.',
    )
    .version(VERSION)
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: ctx.stdout, writeErr: ctx.stderr })
    .exitOverride();
  registerCommands(program, ctx);
  for (const sub of program.commands) sub.exitOverride().configureOutput(program.configureOutput());
  return program;
}

/** Runs the CLI and returns the exit code; never throws, never exits the process. */
export async function main(argv: readonly string[], ctx: CliContext): Promise<number> {
  const program = buildProgram(ctx);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return ctx.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // commander has already printed the message (or the help text)
      return error.exitCode === 0 ? 0 : 2;
    }
    if (isUserFacing(error)) {
      ctx.stderr(`duetkit: error: ${error.message}\n`);
      return 'exitCode' in error && typeof error.exitCode === 'number' ? error.exitCode : 2;
    }
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    ctx.stderr(`duetkit: internal error (please report it): ${detail}\n`);
    return 70;
  }
}
