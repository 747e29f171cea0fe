import type { CliContext } from '../../src/cli/context.js';
import { main } from '../../src/cli/main.js';

export type FakeContext = CliContext & { out: string; err: string };

/** A CLI context that collects stdout and stderr in memory. */
export function fakeContext(
  cwd: string = process.cwd(),
  env: NodeJS.ProcessEnv = process.env,
): FakeContext {
  const ctx: FakeContext = {
    out: '',
    err: '',
    stdout: (text) => void (ctx.out += text),
    stderr: (text) => void (ctx.err += text),
    cwd,
    env,
    isTTY: false,
    exitCode: 0,
  };
  return ctx;
}

/** Runs the CLI in-process; returns the exit code and what it printed. */
export async function runCli(
  argv: string[],
  cwd: string = process.cwd(),
): Promise<{ code: number; out: string; err: string }> {
  const ctx = fakeContext(cwd);
  const code = await main(argv, ctx);
  return { code, out: ctx.out, err: ctx.err };
}
