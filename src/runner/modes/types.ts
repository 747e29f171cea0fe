import type { Rng } from '../../stats/rng.js';

/** One unit of the schedule: trials that start together (a duet) or a single trial. */
export interface Step {
  round: number;
  warmup: boolean;
  /** Version indexes; more than one means they run at the same time behind a barrier. */
  versions: number[];
  /**
   * CPU slot of each entry of `versions`. A duet swaps the slots at random each round, so a
   * CPU that is slower than the other (interrupts, a noisy neighbour) adds noise, not bias.
   */
  slots: number[];
  /** True on the round's last step: a point where the run may stop cleanly. */
  endsRound: boolean;
  /**
   * Per entry of `versions` when they run together: how many start offsets late each starts
   * (a random order of 0 … n−1), so that the sides never end at the same moment; the runner
   * sizes the offset. Absent: all start together.
   */
  stagger?: number[];
}

export interface PlanOptions {
  versionCount: number;
  warmup: number;
  /** Measured rounds to plan; the runner may stop pulling earlier (precision, budget). */
  rounds: number;
  rng: Rng;
}

/**
 * An experimental design (Abedi & Brecht, ICPE'17; Bulej et al., ICPE'20): the order in which
 * trials run, planned up front and lazily, so the plan is pure and the runner only applies it.
 */
export interface ModeDefinition {
  readonly name: 'duet' | 'rmit' | 'mit' | 'mct' | 'single';
  /** CPU slots that must be disjoint: 2 when sides run at once, 1 when they take turns. */
  slotCount(versionCount: number): number;
  /** Whether rounds are blocks in the analysis (pairs of base and head). */
  readonly paired: boolean;
  /** Whether the design runs in rounds, so precision-based stopping can apply. */
  readonly rounds: boolean;
  plan(options: PlanOptions): Generator<Step>;
}

/** All version indexes, in order. */
export function indexes(count: number): number[] {
  return Array.from({ length: count }, (_, i) => i);
}

/** A uniformly random permutation (Fisher–Yates) drawn from the seeded generator. */
export function shuffled(count: number, rng: Rng): number[] {
  const order = indexes(count);
  for (let i = count - 1; i > 0; i--) {
    const j = rng.nextIndex(i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}
