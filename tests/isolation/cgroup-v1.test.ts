import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createCgroupV1 } from '../../src/isolation/cgroup-v1.js';
import { directCgroupFs } from '../../src/isolation/cgroup-fs.js';
import { allowedCpus } from '../../src/isolation/cpus.js';
import { affinityOf, cpusetV1Available, CPUSET_V1, isAlive, waitUntil } from './helpers.js';

// This machine has a writable v1 cpuset hierarchy (root); where there is none the test checks
// that the backend refuses with a reason instead of pretending.
const available = cpusetV1Available();

describe('cgroup v1 cpuset', () => {
  it(
    available
      ? 'confines processes to their slot and removes its groups'
      : 'says why it is unavailable',
    async () => {
      const cpus = allowedCpus();
      const slots = cpus.length >= 2 ? [[cpus[0]!], [cpus[1]!]] : [[cpus[0]!]];
      const create = createCgroupV1({ slots, harness: null, requested: 'cpuset', warnings: [] });
      if (!available) {
        await expect(create).rejects.toThrow(/cgroup|EACCES|EROFS|ENOENT/);
        return;
      }
      const isolation = await create;
      const dir = isolation.report.cgroup!;
      expect(isolation.report.kind).toBe('cgroup-v1');
      expect(path.dirname(dir)).toBe(CPUSET_V1);
      expect(readFileSync(path.join(dir, 'slot-0', 'cpuset.cpus'), 'utf8').trim()).toBe(
        String(slots[0]![0]),
      );

      const children = slots.map(() => spawn('sleep', ['30'], { stdio: 'ignore' }));
      try {
        for (const [slot, child] of children.entries()) {
          await isolation.place(slot).attach(child.pid!);
          expect(affinityOf(child.pid!)).toBe(String(slots[slot]![0]));
          expect(readFileSync(path.join(dir, `slot-${slot}`, 'cgroup.procs'), 'utf8')).toContain(
            String(child.pid),
          );
        }
      } finally {
        await isolation.dispose();
      }
      // Whatever was still inside was killed, and nothing is left behind.
      for (const child of children)
        await waitUntil(
          () => !isAlive(child.pid!) || child.exitCode !== null || child.signalCode !== null,
        );
      expect(children.every((c) => c.signalCode === 'SIGKILL')).toBe(true);
      expect(existsSync(dir)).toBe(false);
      await isolation.dispose(); // idempotent
    },
  );

  it(
    available ? 'sweeps groups left by a dead run' : 'has nothing to sweep without cgroups',
    async () => {
      if (!available) return expect(available).toBe(false);
      const fs = directCgroupFs();
      // A pid that cannot exist (beyond pid_max) stands for a run killed with SIGKILL.
      const stale = path.join(CPUSET_V1, 'duetkit-99999999-test');
      await fs.mkdir(stale);
      await fs.mkdir(path.join(stale, 'slot-0'));
      const isolation = await createCgroupV1({
        slots: [[allowedCpus()[0]!]],
        harness: null,
        requested: 'auto',
        warnings: [],
      });
      await isolation.dispose();
      expect(existsSync(stale)).toBe(false);
    },
  );
});
