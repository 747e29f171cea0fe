import path from 'node:path';
import { emptyAndRemove, type CgroupFs } from './cgroup-fs.js';
import { formatCpuList } from './cpus.js';
import type { Isolation, IsolationKind, IsolationReport, IsolationRequest } from './types.js';

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
}

/** A run's cgroup: one directory with a child per slot. Shared by the v1 and v2 backends. */
export interface GroupLayout {
  kind: Extract<IsolationKind, 'cgroup-v1' | 'cgroup-v2'>;
  fs: CgroupFs;
  dir: string;
  slots: number[][];
  harness: number[] | null;
  requested: IsolationRequest;
  warnings: string[];
  /** Writes a slot's (or the group's) CPUs and whatever else the version needs. */
  configure(dir: string, cpus: number[]): Promise<void>;
  /** Runs once the group directory exists, before the slots (v2 enables the controller). */
  prepareGroup?(dir: string): Promise<void>;
}

/** Creates the group and its slots; on any failure removes what it made and rethrows. */
export async function createGroup(layout: GroupLayout): Promise<Isolation> {
  const { fs, dir } = layout;
  const slotDirs = layout.slots.map((_, i) => path.join(dir, `slot-${i}`));
  const made: string[] = [];
  const dispose = async (): Promise<void> => {
    for (const slot of made.slice(1).reverse()) await emptyAndRemove(fs, slot);
    if (made[0] !== undefined) await emptyAndRemove(fs, made[0]);
    made.length = 0;
  };
  try {
    await fs.mkdir(dir);
    made.push(dir);
    await layout.configure(dir, layout.slots.flat());
    await layout.prepareGroup?.(dir);
    for (const [i, slotDir] of slotDirs.entries()) {
      await fs.mkdir(slotDir);
      made.push(slotDir);
      await layout.configure(slotDir, layout.slots[i]!);
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
    cgroup: dir,
    warnings: layout.warnings,
  };
  return {
    report,
    place: (slot) => {
      const attach = (pid: number): Promise<void> =>
        fs.write(path.join(slotDirs[slot]!, 'cgroup.procs'), String(pid));
      return { prefix: [], attach, move: attach };
    },
    dispose,
  };
}
