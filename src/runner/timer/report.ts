import os from 'node:os';

/** What the timer (duetkit-timer.c) reports for one measured run of a command. */
export interface TimerReport {
  /** CLOCK_MONOTONIC (the clock of process.hrtime) at spawn and at exit, ns. */
  startNs: bigint;
  endNs: bigint;
  /** Exit code, or null when a signal ended the command. */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** CPU time of the command and its waited-for descendants, from wait4's rusage, ms. */
  userMs: number;
  systemMs: number;
  maxRssKb: number;
  /** The timer killed the command at the time limit. */
  timedOut: boolean;
}

/** Parses the timer's `done …` line; `fail ERRNO` becomes an Error naming the errno. */
export function parseTimerLine(line: string): TimerReport | Error {
  const fail = /^fail (\d+)$/.exec(line);
  if (fail !== null) {
    const errno = Number(fail[1]);
    const name = Object.entries(os.constants.errno).find(([, n]) => n === errno)?.[0];
    return new Error(name === 'ENOENT' ? 'command not found' : `spawn failed (${name ?? errno})`);
  }
  const done = /^done (\d+) (\d+) (-?\d+) (\d+) (\d+) (\d+) ([01])$/.exec(line);
  if (done === null) return new Error(`the timer reported ${JSON.stringify(line)}`);
  const status = Number(done[3]);
  const signalNumber = status & 0x7f;
  const signal =
    signalNumber === 0
      ? null
      : ((Object.entries(os.constants.signals).find(([, n]) => n === signalNumber)?.[0] ??
          `SIG${signalNumber}`) as NodeJS.Signals);
  return {
    startNs: BigInt(done[1]!),
    endNs: BigInt(done[2]!),
    code: signal === null ? (status >> 8) & 0xff : null,
    signal,
    userMs: Number(done[4]) / 1000,
    systemMs: Number(done[5]) / 1000,
    maxRssKb: Number(done[6]),
    timedOut: done[7] === '1',
  };
}

/** The timer in relay mode as a persistent program's gate (see src/process/gated-process.ts). */
export function relayGate(timer: string): (flag: string) => string[] {
  return (flag) => [timer, 'relay', flag, '--'];
}
