import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The start and end lines of a step. Every armed process spins on the existence of one flag
 * file (on its own CPU), and creating that file — one system call — releases all of them at
 * once. Blocking in `read` instead would leave the start to the scheduler: waking an idle
 * virtual CPU takes milliseconds on a VM, and more when the harness shares that CPU.
 *
 * The end line is for sides that run together: a shared counter (`sync`, memory-mapped by
 * duetkit's timer) to which each side adds 1 when its command has ended. A side keeps its CPU
 * busy until the counter reaches the step's `target`, so nobody runs the rest of a step alone,
 * and nobody needs the harness (which would take a measured CPU to wake) to say when it is over.
 */
export interface Barrier {
  /** A fresh start line for the next step of `sides` sides (1: a side runs alone). */
  next(sides: number): Gate;
  /** Ends every wait at the end line now (a side failed or the run was interrupted). */
  abort(): void;
  dispose(): void;
}

export interface Gate {
  /** The flag file (absent until `release`). */
  readonly flag: string;
  /** The shared counter file: a uint32 of sides done, then a uint32 abort word. */
  readonly sync: string;
  /** The counter's value once every side of this step is done; 0 for a side alone. */
  readonly target: number;
  /** Creates the flag; returns the release time (hrtime, ns). */
  release(): bigint;
}

/** Layout of the sync file (see duetkit-timer.c): done counter, abort word. */
const SYNC_BYTES = 8;
const ABORT_OFFSET = 4;

export function createBarrier(): Barrier {
  // tmpfs where there is one: the spinning `stat` and the shared counter never touch a disk.
  const parent = existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
  const dir = mkdtempSync(path.join(parent, 'duetkit-barrier-'));
  const sync = path.join(dir, 'sync');
  writeFileSync(sync, Buffer.alloc(SYNC_BYTES));
  let count = 0;
  let done = 0;
  return {
    next(sides) {
      const flag = path.join(dir, `step-${count++}`);
      const target = sides > 1 ? (done += sides) : 0;
      return {
        flag,
        sync,
        target,
        release() {
          const at = process.hrtime.bigint();
          writeFileSync(flag, '');
          return at;
        },
      };
    },
    abort() {
      const fd = openSync(sync, 'r+');
      try {
        writeSync(fd, Buffer.from([1, 0, 0, 0]), 0, 4, ABORT_OFFSET);
      } finally {
        closeSync(fd);
      }
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
