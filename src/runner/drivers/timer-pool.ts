import type { GatedProcess } from '../../process/gated-process.js';

/** How long a timer may take to answer `exit` before it is killed. */
const GRACE_MS = 5000;

/**
 * duetkit's timers (src/runner/timer), kept between experiments: a suite runs one experiment
 * per benchmark and stage, hundreds of them, and each used to start its sides' timers and
 * move them between the CPU sets as the slots were drawn. Joining a cgroup waits for an RCU
 * grace period — ~11 ms a move on the 2-vCPU VM with both sides busy, 7 s of a 112 s
 * fastjson run, and ~20 ms a new experiment — so a pool keeps one timer per side and CPU
 * set, each started in its set once and told its command with every step. A timer is lent to
 * one side at a time: a side takes it when it first runs in that set and gives it back when
 * it closes; a side that failed or was interrupted ends its timers instead.
 */
export interface TimerPool {
  /** A running timer for `key`, or one `start` makes. */
  take(key: string, start: () => Promise<GatedProcess>): Promise<GatedProcess>;
  /** Hands a timer back for the next side with the same key. */
  give(key: string, timer: GatedProcess): void;
  /** Ends every timer it holds (`exit`, killed after a grace period). */
  close(): Promise<void>;
}

export function createTimerPool(): TimerPool {
  const idle = new Map<string, GatedProcess>();
  return {
    async take(key, start) {
      const timer = idle.get(key);
      idle.delete(key);
      return timer !== undefined && running(timer) ? timer : start();
    },
    give(key, timer) {
      if (!running(timer)) return;
      const other = idle.get(key);
      if (other !== undefined && other !== timer) void endTimer(other);
      idle.set(key, timer);
    },
    async close() {
      const timers = [...idle.values()];
      idle.clear();
      await Promise.all(timers.map(endTimer));
    },
  };
}

/** Whether the timer's process has not exited (on its own or by a signal). */
function running(timer: GatedProcess): boolean {
  return timer.child.exitCode === null && timer.child.signalCode === null;
}

/** Tells a timer to exit and waits for it, killing it if it does not answer. */
export async function endTimer(timer: GatedProcess): Promise<void> {
  timer.tell('exit\n');
  const grace = setTimeout(() => timer.kill(), GRACE_MS);
  await timer.finished.finally(() => clearTimeout(grace));
}
