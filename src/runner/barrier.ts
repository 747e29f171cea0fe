import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The start line of a round. Every armed process spins on the existence of one flag file
 * (on its own, reserved CPU), and creating that file — one system call — releases all of them
 * at once. Blocking in `read` instead would leave the start to the scheduler: waking an idle
 * virtual CPU takes milliseconds on a VM, and more when the harness shares that CPU.
 */
export interface Barrier {
  /** A fresh start line for the next step. */
  next(): Gate;
  dispose(): void;
}

export interface Gate {
  /** The flag file (absent until `release`). */
  readonly flag: string;
  /** Creates the flag; returns the release time (hrtime, ns). */
  release(): bigint;
}

export function createBarrier(): Barrier {
  // tmpfs where there is one: the spinning `test -e` then never touches a disk.
  const parent = existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
  const dir = mkdtempSync(path.join(parent, 'duetkit-barrier-'));
  let count = 0;
  return {
    next() {
      const flag = path.join(dir, `step-${count++}`);
      return {
        flag,
        release() {
          const at = process.hrtime.bigint();
          writeFileSync(flag, '');
          return at;
        },
      };
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
