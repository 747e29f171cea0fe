import type { Isolation } from './types.js';
import type { IsolationRequest } from '../contracts/isolation.js';

/** No isolation: the sides may run on any CPU, and the report says so. */
export function createNoIsolation(
  slotCount: number,
  requested: IsolationRequest,
  warnings: string[],
): Isolation {
  return {
    report: {
      requested,
      kind: 'none',
      slots: Array.from({ length: slotCount }, () => null),
      harnessCpus: null,
      cgroup: null,
      warnings,
    },
    place: () => ({ prefix: [], attach: async () => undefined, move: async () => undefined }),
    dispose: async () => undefined,
  };
}
