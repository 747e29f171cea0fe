/**
 * What a CLI command may touch besides its arguments: output streams, working directory,
 * environment and a clock. Tests pass their own; `bin.ts` passes the process's.
 */
export interface CliContext {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Whether stderr is a terminal (progress bars are drawn only then). */
  isTTY: boolean;
  /** Set by a command that finished with a non-zero status but no error (e.g. a gate). */
  exitCode: number;
}

export function processContext(): CliContext {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
    isTTY: process.stderr.isTTY === true,
    exitCode: 0,
  };
}
