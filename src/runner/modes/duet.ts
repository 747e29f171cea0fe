import { indexes, shuffled, type ModeDefinition } from './types.js';

/** `order` with every entry moved `by` places on, modulo its length (a Latin square's row). */
function rotated(order: readonly number[], by: number): number[] {
  return order.map((o) => (o + by) % order.length);
}

/**
 * Duet (Bulej et al., ICPE'20): every version runs at the same time on its own CPUs, and
 * iteration i of all of them starts together; a side that finishes early waits, because a
 * side running alone would see less interference and bias the ratio toward 1.
 * Which side gets which CPUs, and which side starts a little later (`stagger`, applied by the
 * runner where the driver can), is counterbalanced: the measured rounds come in blocks of as
 * many rounds as versions; the block's first round draws both at random (seeded, recorded) and
 * the next ones rotate them, so in every block each version has each CPU slot and each start
 * offset once. A CPU that runs slower than the other for seconds (a vCPU the host favours: up
 * to 25% on this project's VM) then cancels within each block instead of tilting the ratio
 * towards the side that happened to draw it more often in a short run.
 */
export const duet: ModeDefinition = {
  name: 'duet',
  slotCount: (versionCount) => versionCount,
  paired: true,
  rounds: true,
  *plan({ versionCount, warmup, rounds, rng }) {
    let slots: number[] = [];
    let stagger: number[] = [];
    for (let round = 0; round < warmup + rounds; round++) {
      const inBlock = round < warmup ? 0 : (round - warmup) % versionCount;
      if (inBlock === 0) {
        slots = shuffled(versionCount, rng);
        stagger = shuffled(versionCount, rng);
      }
      yield {
        round,
        warmup: round < warmup,
        versions: indexes(versionCount),
        slots: rotated(slots, inBlock),
        endsRound: true,
        stagger: rotated(stagger, inBlock),
      };
    }
  },
};
