import { allowedCpus, formatCpuList, parseCpuList } from '../isolation/cpus.js';
import { hasTaskset } from '../isolation/taskset.js';
import type { IsolationReport } from '../contracts/isolation.js';

/** Where to start the load generator, and how to describe it. */
export interface GeneratorPlan {
  /** argv prefix (`taskset -c 3`), empty to inherit the harness's CPUs. */
  prefix: string[];
  /** Whether its CPUs are free of measured servers (then it may busy-wait for send times). */
  ownCpus: boolean;
}

/**
 * The load generator must not compete with the servers it measures. In order of preference:
 * CPUs that are neither a measured slot's nor the harness's nor a measured CPU's idle SMT
 * sibling (a spare core), then the harness's own CPU (the harness sleeps while a phase runs;
 * the generator inherits its pinning), and only when neither exists (2 CPUs and a duet) the
 * measured CPUs, which the report then says.
 */
export function planGenerator(isolation: IsolationReport, cpus?: number[]): GeneratorPlan {
  const slots = isolation.slots.filter((s): s is string => s !== null).flatMap(parseCpuList);
  if (slots.length === 0) return { prefix: [], ownCpus: false };
  const harness = isolation.harnessCpus === null ? [] : parseCpuList(isolation.harnessCpus);
  let available: number[];
  try {
    available = cpus ?? allowedCpus();
  } catch {
    available = [];
  }
  // The measured CPUs' idle SMT siblings stay idle (cpu-plan.ts).
  const idle = isolation.cpuPlan?.idle ? parseCpuList(isolation.cpuPlan.idle) : [];
  const spare = available.filter(
    (c) => !slots.includes(c) && !harness.includes(c) && !idle.includes(c),
  );
  if (spare.length > 0 && hasTaskset()) {
    return { prefix: ['taskset', '-c', formatCpuList(spare)], ownCpus: true };
  }
  return { prefix: [], ownCpus: harness.length > 0 };
}

/** One sentence on where the generator ran, from its affinity list. */
export function describeGenerator(cpus: string | null, isolation: IsolationReport): string {
  if (cpus === null) return 'the load generator ran on CPUs that could not be read';
  const mine = parseCpuList(cpus);
  const slots = isolation.slots.filter((s): s is string => s !== null).flatMap(parseCpuList);
  const label = `CPU${mine.length === 1 ? '' : 's'} ${cpus}`;
  if (slots.length === 0) {
    return `the load generator ran on ${label}, shared with the servers (no CPU isolation)`;
  }
  if (mine.some((c) => slots.includes(c))) {
    return `the load generator ran on ${label}, shared with the measured servers (no CPU to spare): it takes CPU time from them while it sends`;
  }
  const harness = isolation.harnessCpus === null ? [] : parseCpuList(isolation.harnessCpus);
  return mine.every((c) => harness.includes(c))
    ? `the load generator ran on ${label}, the harness's (no measured server runs there)`
    : `the load generator ran on ${label}, of its own`;
}
