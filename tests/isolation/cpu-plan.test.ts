import { mkdtemp, rm, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { planOnTopology } from '../../src/isolation/cpu-plan.js';
import { readTopology } from '../../src/isolation/topology.js';
import { SHAPES, writeSysfs, type Shape } from './sysfs.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'duetkit-sysfs-'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

async function planFor(shape: Shape, slotCount = 2) {
  const cpus = await writeSysfs(root, shape);
  const topology = readTopology(cpus, root);
  expect(topology).not.toBeNull();
  return planOnTopology(cpus, slotCount, topology)!;
}

describe('readTopology', () => {
  it('reads packages, cores, siblings and the last-level cache from a sysfs tree', async () => {
    const cpus = await writeSysfs(root, SHAPES.github4Split);
    expect(readTopology(cpus, root)!.cpus[1]).toEqual({
      cpu: 1,
      package: 0,
      core: 1,
      siblings: [1, 3],
      llc: [0, 1, 2, 3],
    });
  });

  it('gives up (null) when a topology file is missing, and does without caches', async () => {
    const cpus = await writeSysfs(root, SHAPES.arm64);
    expect(readTopology(cpus, root)!.cpus[0]!.llc).toBeNull();
    await unlink(path.join(root, 'devices/system/cpu/cpu2/topology/core_id'));
    expect(readTopology(cpus, root)).toBeNull();
    expect(readTopology([0], path.join(root, 'nowhere'))).toBeNull();
  });
});

describe('planOnTopology', () => {
  it("GitHub's 4-vCPU runner, siblings 0-1 and 2-3: a core per side, the harness on both siblings", async () => {
    const plan = await planFor(SHAPES.github4Adjacent);
    expect(plan.slots).toEqual([[1], [3]]);
    expect(plan.harness).toEqual([0, 2]);
    expect(plan.record).toMatchObject({
      basis: 'topology',
      layout: '1 package × 2 cores × 2 threads',
      harness: '0,2',
      slots: ['1', '3'],
      idle: null,
      spare: null,
      siblingsInUse: true,
    });
    expect(plan.warnings.join()).toMatch(/SMT siblings \(0,2\) run the harness/);
  });

  it("GitHub's 4-vCPU runner, siblings 0,2 and 1,3: the same plan on the other numbering", async () => {
    const plan = await planFor(SHAPES.github4Split);
    expect(plan.slots).toEqual([[2], [3]]);
    expect(plan.harness).toEqual([0, 1]);
    expect(plan.record.siblingsInUse).toBe(true);
  });

  it('the same runner with one slot (versions taking turns): the harness gets a core, the sibling idles', async () => {
    const plan = await planFor(SHAPES.github4Adjacent, 1);
    expect(plan.record).toMatchObject({
      harness: '0-1',
      slots: ['3'],
      idle: '2',
      siblingsInUse: false,
    });
  });

  it('a 2-vCPU runner of one core × 2 threads: the sides are SMT siblings, and the plan says so', async () => {
    const plan = await planFor(SHAPES.github2Smt);
    expect(plan.slots).toEqual([[0], [1]]);
    expect(plan.harness).toBeNull();
    expect(plan.record.basis).toBe('topology');
    expect(plan.record.reasons[0]).toMatch(
      /1 core \(1 package × 1 core × 2 threads\) for 2 sides: the sides share cores as SMT siblings/,
    );
    expect(plan.warnings[0]).toMatch(/harness shares them/);
  });

  it('a 2-vCPU runner of 2 cores: one each, the harness shares them (as before)', async () => {
    const plan = await planFor(SHAPES.github2Cores);
    expect(plan.slots).toEqual([[0], [1]]);
    expect(plan.harness).toBeNull();
    expect(plan.warnings[0]).toMatch(
      /only 2 CPUs for 2 measured slot\(s\): the harness shares them/,
    );
  });

  it('an 8-vCPU larger runner: harness core, a core per side with its sibling idle, a spare core', async () => {
    const plan = await planFor(SHAPES.larger8);
    expect(plan.record).toMatchObject({
      layout: '1 package × 4 cores × 2 threads',
      harness: '0-1',
      slots: ['3', '5'],
      idle: '2,4',
      spare: '6-7',
      siblingsInUse: false,
    });
    expect(plan.warnings).toEqual([]);
    expect(plan.record.reasons.join('\n')).toMatch(/SMT siblings \(2,4\) are left idle/);
  });

  it('an arm64 runner without SMT: the plan of the CPU list in order', async () => {
    const plan = await planFor(SHAPES.arm64);
    expect(plan.slots).toEqual([[1], [2]]);
    expect(plan.harness).toEqual([0]);
    expect(plan.record).toMatchObject({
      idle: null,
      spare: '3',
      layout: '1 package × 4 cores × 1 thread',
    });
  });

  it('a 2-socket server: each side within one package, on cores no one else uses', async () => {
    const plan = await planFor(SHAPES.twoSocket);
    expect(plan.record).toMatchObject({
      layout: '2 packages × 8 cores × 2 threads',
      harness: '0,16',
      slots: ['17-23', '24-30'],
      idle: '1-14',
      spare: '15,31',
    });
    expect(plan.record.reasons.join('\n')).toMatch(/packages 0 \| 1/);
  });

  it('never puts two sides, or a side and the harness, on one core', async () => {
    for (const shape of Object.values(SHAPES)) {
      await rm(root, { recursive: true, force: true });
      const cpus = await writeSysfs(root, shape);
      const topology = readTopology(cpus, root)!;
      const coreOf = new Map(topology.cpus.map((p) => [p.cpu, p.siblings.join()]));
      for (const slotCount of [1, 2]) {
        const plan = planOnTopology(cpus, slotCount, topology)!;
        const cores = plan.slots.map((slot) => new Set(slot.map((c) => coreOf.get(c))));
        if (new Set(topology.cpus.map((p) => coreOf.get(p.cpu))).size < slotCount) continue;
        const seen = new Set<string>();
        for (const set of cores)
          for (const core of set) {
            expect(seen.has(core!)).toBe(false);
            seen.add(core!);
          }
        if (plan.harness !== null && !plan.record.siblingsInUse) {
          for (const cpu of plan.harness) expect(seen.has(coreOf.get(cpu)!)).toBe(false);
        }
      }
    }
  });

  it('without a topology, splits the list in order as before', () => {
    const plan = planOnTopology([0, 1, 2, 3], 2, null)!;
    expect(plan.slots).toEqual([[1], [2]]);
    expect(plan.harness).toEqual([0]);
    expect(plan.record).toMatchObject({ basis: 'in order', spare: '3' });
  });
});
