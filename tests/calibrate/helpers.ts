import type { CliContext } from '../../src/cli/context.js';

/** A CLI context that collects what a command prints. */
export function context(cwd: string): CliContext & { out: string; err: string } {
  const ctx = {
    out: '',
    err: '',
    cwd,
    env: process.env,
    isTTY: false,
    exitCode: 0,
    stdout: (text: string) => void (ctx.out += text),
    stderr: (text: string) => void (ctx.err += text),
  };
  return ctx;
}
