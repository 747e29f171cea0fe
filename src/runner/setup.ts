import { spawn } from 'node:child_process';
import { commandFailure, RunError } from '../process/errors.js';

/**
 * Runs a version's `setup` (build) command in its directory, before any measurement and
 * without isolation. Fails with the command's stderr tail; an interruption kills its tree.
 */
export function runSetup(
  argv: readonly string[],
  context: { version: string; cwd: string; env: NodeJS.ProcessEnv; signal: AbortSignal },
): Promise<void> {
  return new Promise((resolve, reject) => {
    const failure = { argv, version: context.version, round: null, cwd: context.cwd };
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: context.cwd,
      env: context.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    const collect = (chunk: Buffer): void =>
      void (output = (output + chunk.toString()).slice(-65536));
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const kill = (): void => {
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    };
    context.signal.addEventListener('abort', kill);
    child.on('error', (error) => {
      context.signal.removeEventListener('abort', kill);
      reject(commandFailure(failure, `(setup) could not start: ${error.message}`, ''));
    });
    child.on('close', (code, signal) => {
      context.signal.removeEventListener('abort', kill);
      if (context.signal.aborted) reject(new RunError('interrupted'));
      else if (code === 0) resolve();
      else
        reject(commandFailure(failure, `(setup) failed with ${signal ?? `code ${code}`}`, output));
    });
  });
}
