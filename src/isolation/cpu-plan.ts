import { formatCpuList, planCpus } from './cpus.js';
import { coresOf, describeLayout, type Core, type CpuTopology } from './topology.js';
import type { CpuPlan } from './types.js';

/**
 * Splits the CPUs between the harness and `slotCount` measured slots by physical core, so
 * that no two sides (and not the harness) share a core's execution units and L1/L2 through
 * SMT. Without a topology it splits the list in order (`planCpus`), as before.
 *
 * The rules, and why:
 * - Cores are taken in order of package, then lowest CPU. The harness gets the first core
 *   (CPU 0's, where the kernel's housekeeping and most interrupts land by default) with all
 *   its threads, when a core is left over for it; each slot then gets the same number of
 *   whole cores of the rest, so a slot of several cores stays inside one package when it can.
 * - A slot gets one thread per core: the core's last (highest-numbered) thread. Its other
 *   threads — the measured CPU's SMT siblings — are left idle, given neither to the harness
 *   nor to the load generator: a busy sibling takes issue slots, L1 and L2 from the measured
 *   thread, and would do so for one side and not the other. Measured CPUs then behave like
 *   cores without SMT, the same for every side.
 * - With exactly one core per slot (GitHub's 4-vCPU runner: 2 cores × 2 threads, a duet), no
 *   core is left for the harness. It then runs on the measured CPUs' siblings — all of them,
 *   one per measured core — rather than on one: every side then has a sibling that the
 *   harness (asleep while an iteration runs) and the machine's other processes may use, the
 *   same for each side, where pinning the harness to one sibling would disturb one side only.
 *   Keeping both siblings idle would not keep them idle: every process outside the run (the
 *   runner's agent) is scheduled there anyway. The plan says `siblingsInUse`.
 * - With fewer cores than slots (a 2-vCPU runner that is 1 core × 2 threads) the sides must
 *   share cores: the CPUs are split in order and the reasons say the sides are SMT siblings.
 * - CPUs left over after equal slots are `spare` (the load generator's first choice).
 */
export function planOnTopology(
  available: readonly number[],
  slotCount: number,
  topology: CpuTopology | null,
): CpuPlan | null {
  if (topology === null) return planCpus(available, slotCount);
  const allowed = new Set(available);
  const cores = coresOf({ cpus: topology.cpus.filter((p) => allowed.has(p.cpu)) });
  const layout = describeLayout(cores);
  if (cores.length < slotCount) {
    const plan = planCpus(available, slotCount);
    if (plan === null) return null;
    const reasons = [
      `${cores.length} core${cores.length === 1 ? '' : 's'} (${layout}) for ${slotCount} sides: the sides share cores as SMT siblings, and disturb each other through them`,
    ];
    return { ...plan, record: { ...plan.record, basis: 'topology', layout, reasons } };
  }
  const warnings: string[] = [];
  const reasons: string[] = [];
  const measured = (core: Core): number => core.threads[core.threads.length - 1]!;
  const siblingsOf = (core: Core): number[] => core.threads.slice(0, -1);
  let harness: number[] | null;
  let pool: Core[];
  let idle: number[] = [];
  let siblingsInUse = false;
  if (cores.length >= slotCount + 1) {
    harness = [...cores[0]!.threads];
    pool = cores.slice(1);
    reasons.push(`the harness has a core of its own (CPU ${formatCpuList(harness)})`);
  } else {
    pool = cores;
    const siblings = pool.flatMap(siblingsOf);
    if (siblings.length > 0) {
      harness = siblings;
      siblingsInUse = true;
      reasons.push(
        `no core to spare for the harness: it runs on the measured CPUs' SMT siblings (${formatCpuList(siblings)}), one per side, asleep while an iteration runs`,
      );
      warnings.push(
        `the measured CPUs' SMT siblings (${formatCpuList(siblings)}) run the harness and the machine's other processes: the sides share their cores with them (${layout})`,
      );
    } else {
      harness = null;
      warnings.push(
        `only ${cores.length} CPUs for ${slotCount} measured slot(s): the harness shares them (it sleeps while an iteration runs)`,
      );
    }
  }
  const perSlot = Math.floor(pool.length / slotCount);
  const slotCores = Array.from({ length: slotCount }, (_, i) =>
    pool.slice(i * perSlot, (i + 1) * perSlot),
  );
  const slots = slotCores.map((list) => list.map(measured));
  if (!siblingsInUse) {
    idle = slotCores.flat().flatMap(siblingsOf);
    if (idle.length > 0) {
      reasons.push(
        `each measured CPU has its core to itself: its SMT siblings (${formatCpuList(idle)}) are left idle`,
      );
    }
  }
  reasons.push(`each side on ${perSlot} core${perSlot === 1 ? '' : 's'} of its own`);
  const spare = pool.slice(slotCount * perSlot).flatMap((core) => core.threads);
  const packages = slotCores.map((list) => new Set(list.map((c) => c.package)));
  if (new Set(packages.flatMap((p) => [...p])).size > 1) {
    reasons.push(
      `the sides are on packages ${packages.map((p) => [...p].join('+')).join(' | ')}: each side's memory is local to its own`,
    );
  } else if (sharesNoCache(slotCores)) {
    reasons.push('the sides do not share a last-level cache');
  }
  return {
    slots,
    harness,
    warnings,
    record: {
      basis: 'topology',
      layout,
      harness: harness === null ? null : formatCpuList(harness),
      slots: slots.map(formatCpuList),
      idle: idle.length === 0 ? null : formatCpuList(idle),
      spare: spare.length === 0 ? null : formatCpuList(spare),
      siblingsInUse,
      reasons,
    },
  };
}

/** True when no two slots' cores share a last-level cache (known for every core). */
function sharesNoCache(slotCores: Core[][]): boolean {
  const caches = slotCores.map((list) => list.map((c) => c.llc));
  if (caches.flat().some((llc) => llc === null)) return false;
  const keys = caches.map((list) => new Set(list.map((llc) => formatCpuList(llc!))));
  return keys.every((mine, i) =>
    keys.every((other, j) => i === j || ![...mine].some((k) => other.has(k))),
  );
}
