import { spawn } from 'node:child_process';
import { getFormat } from '../formats/registry.js';
import type { PerBenchmarkSupport } from '../formats/types.js';
import type { Scenario } from '../scenario/schema.js';
import { commandFailure, RunError } from '../process/errors.js';

export interface ListContext {
  version: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
}

/** The per-benchmark support of the scenario's format (the schema has checked it exists). */
export function perBenchmarkSupport(scenario: Scenario): PerBenchmarkSupport {
  const support = getFormat(scenario.workload.format ?? '').perBenchmark;
  if (support === undefined) {
    throw new RunError(`format ${scenario.workload.format} cannot run one benchmark at a time`);
  }
  return support;
}

/**
 * Runs the format's list command (the user's argv turned into one that lists, e.g. go's
 * `-list`) in a version's directory, like `setup`: once, without isolation, no time limit but
 * an interruption. Fails with the command's stderr when it fails or lists nothing.
 */
export async function listBenchmarks(
  argv: readonly string[],
  support: PerBenchmarkSupport,
  context: ListContext,
): Promise<string[]> {
  const listArgv = support.listArgv(argv);
  const failure = { argv: listArgv, version: context.version, round: null, cwd: context.cwd };
  const { code, signal, stdout, stderr, spawnError } = await capture(listArgv, context);
  if (context.signal.aborted) throw new RunError('interrupted');
  if (spawnError !== null) {
    throw commandFailure(failure, `(listing benchmarks) could not start: ${spawnError}`, '');
  }
  if (code !== 0) {
    const how = signal ?? `code ${code}`;
    throw commandFailure(failure, `(listing benchmarks) failed with ${how}`, stderr || stdout);
  }
  const names = support.parseList(stdout);
  if (names.length === 0) {
    throw commandFailure(
      failure,
      `(listing benchmarks) listed none; its stdout was ${JSON.stringify(stdout.slice(0, 300))}`,
      stderr,
    );
  }
  return names;
}

export interface Captured {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  spawnError: string | null;
}

export function capture(argv: readonly string[], context: ListContext): Promise<Captured> {
  return new Promise((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: context.cwd,
      env: context.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => void (stderr = (stderr + chunk).slice(-65536)));
    const kill = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    context.signal.addEventListener('abort', kill);
    // A command that cannot start emits 'error' (maybe no 'close'); the first event settles.
    child.on('error', (error) => {
      context.signal.removeEventListener('abort', kill);
      resolve({ code: null, signal: null, stdout, stderr, spawnError: error.message });
    });
    child.on('close', (code, signal) => {
      context.signal.removeEventListener('abort', kill);
      resolve({ code, signal, stdout, stderr, spawnError: null });
    });
  });
}
