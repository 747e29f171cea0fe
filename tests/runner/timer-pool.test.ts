import { EventEmitter } from 'node:events';
import type { ChildProcess } from 'node:child_process';
import type { GatedProcess, ProcessResult } from '../../src/process/gated-process.js';
import { createTimerPool } from '../../src/runner/drivers/timer-pool.js';

/** A stand-in timer: records what it is told, exits on `exit`. */
function fakeTimer(pid: number): GatedProcess & { told: string[]; exit(): void } {
  const child = new EventEmitter() as unknown as ChildProcess & {
    exitCode: number | null;
    signalCode: NodeJS.Signals | null;
  };
  child.exitCode = null;
  child.signalCode = null;
  let resolve!: (r: ProcessResult) => void;
  const finished = new Promise<ProcessResult>((r) => (resolve = r));
  const told: string[] = [];
  const exit = (): void => {
    if (child.exitCode !== null) return;
    child.exitCode = 0;
    resolve({ code: 0, signal: null, exitedAt: 0n, stdout: '', stderr: '', spawnError: null });
  };
  return {
    pid,
    child,
    told,
    exit,
    prime: async () => undefined,
    controlLine: async () => null,
    tell: (text) => {
      told.push(text);
      if (text === 'exit\n') exit();
    },
    finished,
    terminate: exit,
    kill: exit,
  };
}

describe('the timer pool', () => {
  it('lends one timer per key, takes it back, and starts another only when none is idle', async () => {
    const pool = createTimerPool();
    let started = 0;
    const start = async () => fakeTimer(++started);
    const a = await pool.take('base|0', start);
    const b = await pool.take('base|1', start);
    // taken and not given back: a second side with the same key gets a timer of its own
    const a2 = await pool.take('base|0', start);
    expect([a.pid, b.pid, a2.pid]).toEqual([1, 2, 3]);
    pool.give('base|0', a);
    pool.give('base|1', b);
    expect((await pool.take('base|0', start)).pid).toBe(1);
    expect((await pool.take('base|1', start)).pid).toBe(2);
    expect(started).toBe(3);
  });

  it('never lends a timer that has ended; ends an idle one a second one replaces', async () => {
    const pool = createTimerPool();
    let started = 0;
    const timers: ReturnType<typeof fakeTimer>[] = [];
    const start = async () => {
      const t = fakeTimer(++started);
      timers.push(t);
      return t;
    };
    const started1 = fakeTimer(++started);
    timers.push(started1);
    const a = await pool.take('k', async () => started1);
    pool.give('k', a);
    started1.exit();
    await a.finished;
    expect((await pool.take('k', start)).pid).toBe(2);
    const b = await pool.take('k', start);
    const c = await pool.take('k', start);
    pool.give('k', b);
    pool.give('k', c);
    await b.finished;
    expect(timers[1]!.told).toEqual([]);
    expect(timers[2]!.told).toEqual(['exit\n']);
    expect((await pool.take('k', start)).pid).toBe(c.pid);
  });

  it('tells every idle timer to exit when closed', async () => {
    const pool = createTimerPool();
    const a = fakeTimer(1);
    const b = fakeTimer(2);
    await pool.take('x', async () => a);
    await pool.take('y', async () => b);
    pool.give('x', a);
    pool.give('y', b);
    await pool.close();
    expect(a.told).toEqual(['exit\n']);
    expect(b.told).toEqual(['exit\n']);
    expect(a.child.exitCode).toBe(0);
  });
});
