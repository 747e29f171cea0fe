import { spawn } from 'node:child_process';
import { chooseIsolation } from '../../src/isolation/choose.js';
import { createTaskset, hasTaskset } from '../../src/isolation/taskset.js';
import { affinityOf, cpusetV1Available } from './helpers.js';

describe('chooseIsolation', () => {
  it('uses the cgroup v1 cpuset where it is writable (auto and cpuset)', async () => {
    for (const requested of ['auto', 'cpuset'] as const) {
      const attempt = chooseIsolation(requested, { slotCount: 2, cpus: [0, 1] });
      if (!cpusetV1Available()) {
        if (requested === 'cpuset')
          await expect(attempt).rejects.toThrow(/cpuset is not available/);
        continue;
      }
      const isolation = await attempt;
      try {
        expect(isolation.report).toMatchObject({
          requested,
          kind: 'cgroup-v1',
          slots: ['0', '1'],
          harnessCpus: null,
        });
        expect(isolation.report.warnings.join()).toMatch(/harness shares them/);
      } finally {
        await isolation.dispose();
      }
    }
  });

  it('pins the harness to its spare CPU and restores it afterwards', async () => {
    const before = affinityOf(process.pid);
    const isolation = await chooseIsolation('taskset', { slotCount: 1, cpus: [0, 1] });
    try {
      expect(isolation.report).toMatchObject({ kind: 'taskset', slots: ['1'], harnessCpus: '0' });
      expect(affinityOf(process.pid)).toBe('0');
    } finally {
      await isolation.dispose();
    }
    expect(affinityOf(process.pid)).toBe(before);
  });

  it('records the CPU plan, by core when the topology is known, in order when it is not', async () => {
    const inOrder = await chooseIsolation('taskset', {
      slotCount: 1,
      cpus: [0, 1],
      topology: null,
      pinHarness: false,
    });
    expect(inOrder.report.cpuPlan).toMatchObject({ basis: 'in order', harness: '0', slots: ['1'] });
    await inOrder.dispose();
    const smt = await chooseIsolation('taskset', {
      slotCount: 1,
      cpus: [0, 1],
      pinHarness: false,
      topology: {
        cpus: [
          { cpu: 0, package: 0, core: 0, siblings: [0, 1], llc: null },
          { cpu: 1, package: 0, core: 0, siblings: [0, 1], llc: null },
        ],
      },
    });
    expect(smt.report.slots).toEqual(['1']);
    expect(smt.report.cpuPlan).toMatchObject({
      basis: 'topology',
      harness: '0',
      siblingsInUse: true,
    });
    await smt.dispose();
  });

  it('falls back to no isolation, with a warning, when sets cannot be disjoint', async () => {
    const isolation = await chooseIsolation('auto', { slotCount: 3, cpus: [0, 1] });
    expect(isolation.report).toMatchObject({ kind: 'none', slots: [null, null, null] });
    expect(isolation.report.warnings[0]).toMatch(
      /no CPU isolation: 3 disjoint CPU sets need 3 CPUs/,
    );
    await expect(chooseIsolation('taskset', { slotCount: 3, cpus: [0, 1] })).rejects.toMatchObject({
      name: 'RunError',
    });
  });

  it('honours none', async () => {
    const isolation = await chooseIsolation('none', { slotCount: 2 });
    expect(isolation.report.kind).toBe('none');
    expect(isolation.report.warnings).toEqual(['isolation: none was requested']);
  });
});

describe('taskset', () => {
  it('starts processes with the slot’s affinity and moves running ones', async () => {
    expect(hasTaskset()).toBe(true);
    const isolation = createTaskset({
      slots: [[0], [1]],
      harness: null,
      requested: 'taskset',
      warnings: [],
    });
    const placement = isolation.place(1);
    const child = spawn(placement.prefix[0]!, [...placement.prefix.slice(1), 'sleep', '5'], {
      stdio: 'ignore',
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(affinityOf(child.pid!)).toBe('1');
      await isolation.place(0).move(child.pid!);
      expect(affinityOf(child.pid!)).toBe('0');
    } finally {
      child.kill('SIGKILL');
    }
  });
});
