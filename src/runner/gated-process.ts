import { spawn, type ChildProcess } from 'node:child_process';
import type { Duplex } from 'node:stream';
import type { Placement } from '../isolation/types.js';

/**
 * Starts `argv` stopped behind a gate, in two stages. A tiny `sh` first blocks reading fd 3;
 * `prime()` wakes it, it answers on fd 3 and then spins until the barrier's flag file exists
 * ($0), and `exec`s the command (arguments passed as "$@", never interpolated). Process
 * start-up, the move into the slot's cgroup and the wake-up of an idle CPU all happen before
 * the flag is created, so they are neither measured nor a source of start skew.
 */
const GATE_SCRIPT = 'read _ <&3 && echo >&3 && while [ ! -e "$0" ]; do :; done && exec "$@" 3<&-';

export interface GatedProcess {
  readonly pid: number;
  readonly child: ChildProcess;
  /** Wakes the gate; resolves once it spins, waiting for the barrier's flag. */
  prime(): Promise<void>;
  /** Resolves when the process has exited and its output is complete. */
  readonly finished: Promise<ProcessResult>;
  /** SIGKILLs the whole process group (the command and anything it forked). */
  kill(): void;
}

export interface ProcessResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** hrtime (ns) of the exit event. */
  exitedAt: bigint;
  stdout: string;
  stderr: string;
  spawnError: Error | null;
}

export interface GatedOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  placement: Placement;
  /** Flag file whose creation releases the process (see barrier.ts). */
  flag: string;
  /** `pipe` for the persistent protocol; otherwise the command reads an empty stdin. */
  stdin: 'pipe' | 'ignore';
  /** Called for every chunk of stdout (the persistent protocol reads lines as they come). */
  onStdout?: (chunk: string) => void;
}

export async function startGated(
  argv: readonly string[],
  options: GatedOptions,
): Promise<GatedProcess> {
  // The placement prefix (taskset) wraps the gate, so its cost is not measured either.
  const [file, ...args] = [
    ...options.placement.prefix,
    '/bin/sh',
    '-c',
    GATE_SCRIPT,
    options.flag,
    ...argv,
  ];
  const child = spawn(file!, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: [options.stdin, 'pipe', 'pipe', 'pipe'],
    // Own process group: one kill reaches the command's whole tree, and a Ctrl-C in the
    // terminal reaches only the harness, which then stops the sides itself.
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  let exitedAt = 0n;
  let spawnError: Error | null = null;
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    options.onStdout?.(chunk);
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    // Keep the tail only: a chatty benchmark must not grow the harness's memory.
    stderr = (stderr + chunk).slice(-65536);
  });
  child.on('exit', () => (exitedAt = process.hrtime.bigint()));
  const finished = new Promise<ProcessResult>((resolve) => {
    child.on('error', (error) => {
      spawnError = error;
      resolve({ code: null, signal: null, exitedAt, stdout, stderr, spawnError });
    });
    child.on('close', (code, signal) => {
      if (exitedAt === 0n) exitedAt = process.hrtime.bigint();
      resolve({ code, signal, exitedAt, stdout, stderr, spawnError });
    });
  });
  const gate = child.stdio[3] as Duplex;
  gate.on('error', () => undefined); // the process may die before the gate opens
  const kill = (): void => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // the group is already gone
    }
  };
  if (child.pid === undefined) {
    const result = await finished;
    throw result.spawnError ?? new Error('spawn failed');
  }
  try {
    await options.placement.attach(child.pid);
  } catch (error) {
    kill();
    throw error;
  }
  return {
    pid: child.pid,
    child,
    prime() {
      return new Promise<void>((resolve, reject) => {
        const onData = (): void => {
          gate.off('close', onClose);
          resolve();
        };
        const onClose = (): void => {
          gate.off('data', onData);
          reject(new Error('the process ended before its gate opened'));
        };
        gate.once('data', onData);
        gate.once('close', onClose);
        gate.write('\n');
      });
    },
    finished,
    kill,
  };
}
