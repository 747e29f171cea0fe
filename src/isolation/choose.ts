import { createCgroupV1 } from './cgroup-v1.js';
import { createCgroupV2, sweepV2Leftovers } from './cgroup-v2.js';
import { planOnTopology } from './cpu-plan.js';
import { allowedCpus } from './cpus.js';
import { pinHarness } from './harness-affinity.js';
import { createNoIsolation } from './none.js';
import { createTaskset, hasTaskset } from './taskset.js';
import { readTopology, type CpuTopology } from './topology.js';
import type { Isolation } from './types.js';
import type { IsolationRequest } from '../contracts/isolation.js';
import { UserError } from '../errors.js';

/** Asked-for isolation that cannot be had; the message says why and what else is accepted. */
export class IsolationError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = 'RunError';
  }
}

export interface ChooseOptions {
  /** Slots that must not share CPUs (2 for a duet, 1 when versions take turns). */
  slotCount: number;
  /** CPUs to split; default: this process's affinity mask. */
  cpus?: number[];
  /** Pin the harness to its spare CPU, when there is one. Default true. */
  pinHarness?: boolean;
  /** With cgroups, raise the slots' CPU weight (see CgroupOptions). Default true. */
  cpuWeight?: boolean;
  /** The CPUs' topology; default: read from `sysRoot`. null plans without it (in order). */
  topology?: CpuTopology | null;
  /** Where sysfs is mounted, for the topology. Default `/sys`. */
  sysRoot?: string;
}

/**
 * Sets up the strongest isolation available, in the order cgroup v1 cpuset, cgroup v2
 * cpuset, taskset, none (`auto`), or exactly the one requested. Each weaker choice and the
 * reason for it end up in `report.warnings`, which every report shows.
 */
export async function chooseIsolation(
  requested: IsolationRequest,
  options: ChooseOptions,
): Promise<Isolation> {
  // A partition a killed run left holds its CPUs until swept: sweep before reading ours.
  if (requested !== 'none' && options.cpus === undefined) await sweepV2Leftovers();
  const cpus = options.cpus ?? allowedCpus();
  const topology =
    options.topology === undefined ? readTopology(cpus, options.sysRoot) : options.topology;
  const plan = planOnTopology(cpus, options.slotCount, topology);
  if (requested === 'none') {
    return createNoIsolation(options.slotCount, requested, ['isolation: none was requested']);
  }
  if (plan === null) {
    const reason = `${options.slotCount} disjoint CPU sets need ${options.slotCount} CPUs`;
    if (requested !== 'auto') throw new IsolationError(`isolation: ${requested}: ${reason}`);
    return createNoIsolation(options.slotCount, requested, [`no CPU isolation: ${reason}`]);
  }
  const reasons: string[] = [];
  const base = {
    slots: plan.slots,
    harness: plan.harness,
    requested,
    warnings: plan.warnings,
    cpuWeight: options.cpuWeight ?? true,
  };
  let isolation: Isolation | null = null;
  if (requested === 'auto' || requested === 'cpuset') {
    for (const create of [createCgroupV1, createCgroupV2]) {
      try {
        isolation = await create({ ...base, warnings: [...plan.warnings] });
        break;
      } catch (error) {
        reasons.push((error as Error).message);
      }
    }
    if (isolation === null && requested === 'cpuset') {
      throw new IsolationError(
        `isolation: cpuset is not available (${reasons.join('; ')}); accepted instead: auto, taskset, none`,
      );
    }
  }
  if (isolation === null && (requested === 'auto' || requested === 'taskset')) {
    if (hasTaskset()) {
      isolation = createTaskset({
        ...base,
        warnings: [...plan.warnings, ...reasons.map((r) => `no cpuset: ${r}`)],
      });
    } else if (requested === 'taskset') {
      throw new IsolationError('isolation: taskset: the taskset command is not installed');
    } else reasons.push('taskset is not installed');
  }
  if (isolation === null) {
    return createNoIsolation(options.slotCount, requested, [
      `no CPU isolation in effect: ${reasons.join('; ')}`,
    ]);
  }
  isolation.report.cpuPlan = plan.record;
  return withPinnedHarness(isolation, plan.harness, options.pinHarness ?? true);
}

function withPinnedHarness(
  isolation: Isolation,
  harness: number[] | null,
  pin: boolean,
): Isolation {
  const restore = pin && harness !== null ? pinHarness(harness) : null;
  if (restore === null) {
    if (harness !== null && pin) {
      isolation.report.warnings.push('the harness could not be pinned to its own CPU');
    }
    isolation.report.harnessCpus = null;
    return isolation;
  }
  return {
    ...isolation,
    async dispose() {
      restore();
      await isolation.dispose();
    },
  };
}
