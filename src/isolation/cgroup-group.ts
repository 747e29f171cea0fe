import path from 'node:path';
import { emptyAndRemove, type CgroupFs } from './cgroup-fs.js';
import { formatCpuList } from './cpus.js';
import type { Isolation } from './types.js';
import type { IsolationKind, IsolationReport, IsolationRequest } from '../contracts/isolation.js';

/** What a cgroup backend (v1 or v2) is asked for. */
export interface CgroupOptions {
  /** Disjoint CPU sets, one per measured slot. */
  slots: number[][];
  /** CPUs for the harness itself, or null when it shares them. */
  harness: number[] | null;
  requested: IsolationRequest;
  warnings: string[];
  fs?: CgroupFs;
  /** Mount point of the hierarchy; found in /proc/self/mountinfo by default. */
  mount?: string;
  /**
   * Give the slots the largest CPU weight the cpu controller allows, so that other processes
   * on the measured CPUs (unconfined noise, the runner's agent) get little time while an
   * iteration runs. Default true; without a usable cpu controller it is a warning.
   */
  cpuWeight?: boolean;
  /** v1 only: mount point of the `cpu` hierarchy; found in /proc/self/mountinfo by default. */
  cpuMount?: string;
  /**
   * v2 only: make the measured CPUs a partition (exclusive) while the run lasts, where the
   * kernel allows it and the harness has CPUs outside them. Default true.
   */
  exclusive?: boolean;
}

/**
 * One hierarchy the run's group is made in: cgroup v2 has one for every controller, v1 one
 * per controller (cpuset, and cpu for the weight).
 */
export interface GroupTree {
  /** The run's group directory in this hierarchy. */
  dir: string;
  /** Writes a slot's (or the group's) settings: its CPUs, its weight. */
  configure(dir: string, cpus: number[]): Promise<void>;
  /** Runs once the group directory exists, before the slots (v2 enables controllers). */
  prepareGroup?(dir: string): Promise<void>;
  /**
   * Settings of the group's `harness` child, which the harness joins for the run when it
   * shares the measured CPUs (no spare CPU to pin it to): the slots' weight. Between steps the
   * sides spin at the start line at that weight, and the harness must get a CPU at once to
   * release them; during a step it sleeps (duetkit's timer needs nothing from it). Absent in
   * trees that carry no weight.
   */
  configureHarness?(dir: string): Promise<void>;
  /** Where the harness goes back to after the run. Default: the parent of `dir`. */
  harnessHome?: string;
  /** Undoes what `prepareGroup` claimed (v2: the partition), before the group is removed. */
  releaseGroup?(dir: string): Promise<void>;
}

/** A run's cgroup: one directory with a child per slot. Shared by the v1 and v2 backends. */
export interface GroupLayout {
  kind: Extract<IsolationKind, 'cgroup-v1' | 'cgroup-v2'>;
  fs: CgroupFs;
  /** The cpuset hierarchy's group first (reported as `cgroup`), then any other. */
  trees: [GroupTree, ...GroupTree[]];
  slots: number[][];
  harness: number[] | null;
  requested: IsolationRequest;
  warnings: string[];
  /** The weight the slots were given, for the report (`cpu.weight=10000`); null for none. */
  cpuWeight: string | null;
}

/**
 * `create(true)`, the group with the raised CPU weight; if that fails, `create(false)` with the
 * reason among the warnings: the CPU sets matter most, the weight is a bonus. Shared by v1
 * and v2.
 */
export async function withWeightOrWithout(
  create: (weighted: boolean) => Promise<Isolation>,
  warnings: string[],
): Promise<Isolation> {
  try {
    return await create(true);
  } catch (error) {
    warnings.push(`the CPU weight could not be raised: ${(error as Error).message}`);
    return create(false);
  }
}

/**
 * Creates the group and its slots in every tree; a process placed in a slot joins that slot
 * in each of them. On any failure removes what it made and rethrows.
 */
export async function createGroup(layout: GroupLayout): Promise<Isolation> {
  const { fs, trees } = layout;
  const slotDirs = trees.map((tree) =>
    layout.slots.map((_, i) => path.join(tree.dir, `slot-${i}`)),
  );
  const made: string[][] = [];
  // Trees whose `harness` child this process joined; it goes back to its own group first.
  const joined: GroupTree[] = [];
  const dispose = async (): Promise<void> => {
    for (const tree of joined.splice(0)) {
      const home = tree.harnessHome ?? path.dirname(tree.dir);
      await fs.write(path.join(home, 'cgroup.procs'), String(process.pid));
    }
    for (const [t, dirs] of made.entries()) {
      if (dirs[0] !== undefined) await trees[t]!.releaseGroup?.(dirs[0]);
      for (const slot of dirs.slice(1).reverse()) await emptyAndRemove(fs, slot);
      if (dirs[0] !== undefined) await emptyAndRemove(fs, dirs[0]);
    }
    made.length = 0;
  };
  try {
    for (const [t, tree] of trees.entries()) {
      const dirs: string[] = [];
      made.push(dirs);
      await fs.mkdir(tree.dir);
      dirs.push(tree.dir);
      await tree.configure(tree.dir, layout.slots.flat());
      await tree.prepareGroup?.(tree.dir);
      for (const [i, slotDir] of slotDirs[t]!.entries()) {
        await fs.mkdir(slotDir);
        dirs.push(slotDir);
        await tree.configure(slotDir, layout.slots[i]!);
      }
      if (layout.cpuWeight !== null && layout.harness === null && tree.configureHarness) {
        const harnessDir = path.join(tree.dir, 'harness');
        await fs.mkdir(harnessDir);
        dirs.push(harnessDir);
        await tree.configureHarness(harnessDir);
        await fs.write(path.join(harnessDir, 'cgroup.procs'), String(process.pid));
        joined.push(tree);
      }
    }
  } catch (error) {
    await dispose().catch(() => undefined);
    throw error;
  }
  const report: IsolationReport = {
    requested: layout.requested,
    kind: layout.kind,
    slots: layout.slots.map(formatCpuList),
    harnessCpus: layout.harness === null ? null : formatCpuList(layout.harness),
    cgroup: trees[0].dir,
    ...(layout.cpuWeight === null ? {} : { cpuWeight: layout.cpuWeight }),
    ...(joined.length > 0 ? { harnessWeighted: true } : {}),
    warnings: layout.warnings,
  };
  return {
    report,
    place: (slot) => {
      const attach = async (pid: number): Promise<void> => {
        for (const dirs of slotDirs)
          await fs.write(path.join(dirs[slot]!, 'cgroup.procs'), String(pid));
      };
      return { prefix: [], attach, move: attach };
    },
    dispose,
  };
}
