import { spawn } from 'node:child_process';

export interface ToolResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Set when the program could not be started (ENOENT: not installed). */
  spawnError: Error | null;
}

/** Runs a profiler's helper command (perf script, a probe) to its end; never rejects. */
export function runTool(
  argv: readonly string[],
  options: { env: NodeJS.ProcessEnv; cwd?: string; input?: string; maxBuffer?: number },
): Promise<ToolResult> {
  return new Promise((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), {
      env: options.env,
      cwd: options.cwd,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let stderr = '';
    let spawnError: Error | null = null;
    child.stdout!.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-16384);
    });
    if (options.input !== undefined) child.stdin!.end(options.input);
    child.on('error', (error) => {
      spawnError = error;
    });
    child.on('close', (code) =>
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr, spawnError }),
    );
  });
}

/** The last line of a tool's stderr worth showing in a warning. */
export function lastLine(text: string): string {
  const lines = text
    .trim()
    .split('\n')
    .filter((l) => l.trim() !== '');
  return lines.at(-1)?.trim() ?? '';
}

/** What `runTool` says about a failed probe, in a sentence. */
export function whyFailed(name: string, result: ToolResult): string {
  if (result.spawnError !== null) {
    return (result.spawnError as NodeJS.ErrnoException).code === 'ENOENT'
      ? `${name} is not installed (not on the PATH)`
      : `${name} could not be started: ${result.spawnError.message}`;
  }
  return `${name} exited with ${String(result.code)}: ${lastLine(result.stderr) || 'no message'}`;
}
