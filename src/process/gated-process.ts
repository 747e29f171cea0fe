import { spawn, type ChildProcess } from 'node:child_process';
import type { Duplex } from 'node:stream';
import type { Placement } from '../isolation/types.js';

/**
 * The default gate: a tiny `sh` first blocks reading fd 3; `prime()` wakes it, it answers on
 * fd 3 and then spins until the barrier's flag file exists ($0), and `exec`s the command
 * (arguments passed as "$@", never interpolated). Process start-up, the move into the slot's
 * cgroup and the wake-up of an idle CPU all happen before the flag is created, so they are
 * neither measured nor a source of start skew. The timer (src/runner/timer) is a gate of the
 * same two stages that also times the command where it runs.
 */
const GATE_SCRIPT = 'read _ <&3 && echo >&3 && while [ ! -e "$0" ]; do :; done && exec "$@" 3<&-';

/** How long a SIGTERMed process may take before its group is SIGKILLed. */
const TERMINATE_GRACE_MS = 5000;

export function shellGate(flag: string): string[] {
  return ['/bin/sh', '-c', GATE_SCRIPT, flag];
}

export interface GatedProcess {
  readonly pid: number;
  readonly child: ChildProcess;
  /** Wakes the gate; resolves once it spins, waiting for the barrier's flag. */
  prime(): Promise<void>;
  /** The next line the gate writes on fd 3 after priming; null once fd 3 is closed. */
  controlLine(): Promise<string | null>;
  /** Writes to the gate's fd 3 (ignored once the process is gone). */
  tell(text: string): void;
  /** Resolves when the process has exited and its output is complete. */
  readonly finished: Promise<ProcessResult>;
  /**
   * SIGTERMs the process alone, then, if it is still there after a grace period, SIGKILLs its
   * group: for a process (duetkit's timer) that puts what it starts in groups of their own and
   * kills them itself on SIGTERM.
   */
  terminate(): void;
  /** SIGKILLs the whole process group (the command and anything it forked). */
  kill(): void;
}

export interface ProcessResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** hrtime (ns) of the exit event, as the harness saw it. */
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
  /** The gate's argv before the command's, given the flag. Default `shellGate`. */
  gate?: (flag: string) => string[];
  /** Keep only the last 64 KiB of stdout too (a long-running server's log). Default false. */
  tailStdout?: boolean;
}

export async function startGated(
  argv: readonly string[],
  options: GatedOptions,
): Promise<GatedProcess> {
  // The placement prefix (taskset) wraps the gate, so its cost is not measured either.
  const [file, ...args] = [
    ...options.placement.prefix,
    ...(options.gate ?? shellGate)(options.flag),
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
    if (options.tailStdout === true) stdout = stdout.slice(-65536);
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
  const lines = controlLines(gate);
  const kill = (): void => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // the group is already gone
    }
  };
  const terminate = (): void => {
    try {
      child.kill('SIGTERM');
    } catch {
      return; // already gone
    }
    const grace = setTimeout(kill, TERMINATE_GRACE_MS);
    void finished.then(() => clearTimeout(grace));
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
    async prime() {
      gate.write('\n');
      if ((await lines.next()) === null) {
        throw new Error('the process ended before its gate opened');
      }
    },
    controlLine: () => lines.next(),
    tell(text) {
      if (!gate.destroyed && gate.writable) gate.write(text);
    },
    finished,
    terminate,
    kill,
  };
}

/** The lines a gate writes on fd 3, one at a time; null once the channel is closed. */
function controlLines(gate: Duplex): { next(): Promise<string | null> } {
  let buffer = '';
  let closed = false;
  const queue: string[] = [];
  const waiting: ((line: string | null) => void)[] = [];
  const deliver = (): void => {
    while (waiting.length > 0 && (queue.length > 0 || closed)) {
      waiting.shift()!(queue.length > 0 ? queue.shift()! : null);
    }
  };
  gate.setEncoding('utf8');
  gate.on('data', (chunk: string) => {
    buffer += chunk;
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      queue.push(buffer.slice(0, newline));
      buffer = buffer.slice(newline + 1);
    }
    deliver();
  });
  const close = (): void => {
    closed = true;
    deliver();
  };
  gate.on('end', close);
  gate.on('close', close);
  return {
    next() {
      return new Promise((resolve) => {
        waiting.push(resolve);
        deliver();
      });
    },
  };
}
