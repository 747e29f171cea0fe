import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { CgroupOptions } from '../../src/isolation/cgroup-group.js';
import { createCgroupV1 } from '../../src/isolation/cgroup-v1.js';
import { directCgroupFs } from '../../src/isolation/cgroup-fs.js';
import { allowedCpus } from '../../src/isolation/cpus.js';
import { affinityOf, cpusetV1Available, CPUSET_V1, isAlive, waitUntil } from './helpers.js';

const CPU_V1 = '/sys/fs/cgroup/cpu';

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

      // The same group in the cpu hierarchy gives each slot the largest weight.
      const weighted = existsSync(`${CPU_V1}/cpu.shares`);
      const cpuDir = path.join(CPU_V1, path.basename(dir));
      expect(isolation.report.cpuWeight).toBe(weighted ? 'cpu.shares=262144' : undefined);

      // The harness shares the slots' CPUs here (harness: null): it joined the group's
      // harness child in the cpu hierarchy, with the slots' weight, and no cpuset of ours.
      if (weighted) {
        expect(isolation.report.harnessWeighted).toBe(true);
        expect(readFileSync(path.join(cpuDir, 'harness', 'cpu.shares'), 'utf8').trim()).toBe(
          '262144',
        );
        const own = readFileSync('/proc/self/cgroup', 'utf8');
        expect(own).toMatch(new RegExp(`:cpu(,cpuacct)?:/.*${path.basename(dir)}/harness\n`));
        expect(own).not.toMatch(new RegExp(`:cpuset:/.*${path.basename(dir)}`));
      }

      const children = slots.map(() => spawn('sleep', ['30'], { stdio: 'ignore' }));
      try {
        for (const [slot, child] of children.entries()) {
          await isolation.place(slot).attach(child.pid!);
          expect(affinityOf(child.pid!)).toBe(String(slots[slot]![0]));
          expect(readFileSync(path.join(dir, `slot-${slot}`, 'cgroup.procs'), 'utf8')).toContain(
            String(child.pid),
          );
          if (weighted) {
            const slotDir = path.join(cpuDir, `slot-${slot}`);
            expect(readFileSync(path.join(slotDir, 'cpu.shares'), 'utf8').trim()).toBe('262144');
            expect(readFileSync(path.join(slotDir, 'cgroup.procs'), 'utf8')).toContain(
              String(child.pid),
            );
            expect(readFileSync(`/proc/${child.pid}/cgroup`, 'utf8')).toMatch(
              new RegExp(`:cpu(,cpuacct)?:/.*${path.basename(dir)}/slot-${slot}\n`),
            );
          }
        }
      } finally {
        await isolation.dispose();
      }
      expect(existsSync(cpuDir)).toBe(false);
      // The harness is back in its own group.
      expect(readFileSync('/proc/self/cgroup', 'utf8')).not.toMatch(
        new RegExp(`${path.basename(dir)}/harness`),
      );
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
    available
      ? 'the weighted slot wins its CPU from an unconfined busy process'
      : 'cannot weigh anything without cgroups',
    async () => {
      if (!available || !existsSync(`${CPU_V1}/cpu.shares`)) return expect(available).toBe(false);
      const cpu = allowedCpus().at(-1)!;
      const spin = ['-e', 'const end = Date.now() + 2500; while (Date.now() < end);'];
      // the intruder: same CPU by affinity only, in no cgroup of ours (started before the
      // group exists: the harness, sharing the slots' CPU, joins the group with their weight,
      // and what it starts afterwards would too)
      const intruder = spawn('taskset', ['-c', String(cpu), process.execPath, ...spin]);
      const isolation = await createCgroupV1({
        slots: [[cpu]],
        harness: null,
        requested: 'cpuset',
        warnings: [],
      });
      const measured = spawn(process.execPath, spin);
      try {
        await isolation.place(0).attach(measured.pid!);
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const ticks = (pid: number) => {
          const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
          return Number(fields[11]) + Number(fields[12]); // utime + stime
        };
        const mine = ticks(measured.pid!);
        const theirs = ticks(intruder.pid!);
        // 262144 against 1024: the measured process should get nearly all of the CPU
        expect(mine / (mine + theirs)).toBeGreaterThan(0.75);
      } finally {
        intruder.kill('SIGKILL');
        await isolation.dispose();
      }
    },
  );

  it(
    available
      ? 'leaves the CPU weight alone when asked, and keeps the CPU sets without a cpu hierarchy'
      : 'is unavailable without cgroups, weight or not',
    async () => {
      const cpus = allowedCpus();
      const options: CgroupOptions = {
        slots: [[cpus[0]!]],
        harness: null,
        requested: 'cpuset',
        warnings: [],
      };
      if (!available) {
        await expect(createCgroupV1({ ...options, cpuWeight: false })).rejects.toThrow();
        return;
      }
      const plain = await createCgroupV1({ ...options, cpuWeight: false });
      expect(plain.report.cpuWeight).toBeUndefined();
      expect(existsSync(path.join(CPU_V1, path.basename(plain.report.cgroup!)))).toBe(false);
      await plain.dispose();
      // a cpu "hierarchy" without cpu.shares: the CPU sets stay, the report says why
      const noCpu = await createCgroupV1({ ...options, cpuMount: '/nonexistent' });
      expect(noCpu.report.kind).toBe('cgroup-v1');
      expect(noCpu.report.cpuWeight).toBeUndefined();
      expect(noCpu.report.warnings.join('\n')).toMatch(/no cgroup v1 cpu hierarchy/);
      await noCpu.dispose();
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
      // ...and in the cpu hierarchy with the harness's child group, which it had joined.
      const staleCpu = path.join(CPU_V1, 'duetkit-99999999-test');
      const weighted = existsSync(`${CPU_V1}/cpu.shares`);
      if (weighted) {
        await fs.mkdir(staleCpu);
        await fs.mkdir(path.join(staleCpu, 'slot-0'));
        await fs.mkdir(path.join(staleCpu, 'harness'));
      }
      const isolation = await createCgroupV1({
        slots: [[allowedCpus()[0]!]],
        harness: null,
        requested: 'auto',
        warnings: [],
      });
      await isolation.dispose();
      expect(existsSync(stale)).toBe(false);
      expect(existsSync(staleCpu)).toBe(false);
    },
  );
});
