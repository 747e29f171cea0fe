import { indexes, shuffled, type ModeDefinition } from './types.js';

/**
 * Duet (Bulej et al., ICPE'20): every version runs at the same time on its own CPUs, and
 * iteration i of all of them starts together; a side that finishes early waits, because a
 * side running alone would see less interference and bias the ratio toward 1. Which side
 * gets which CPUs is drawn afresh each round (seeded, recorded), and so is which side starts
 * a little later (`stagger`, applied by the runner where the driver can).
 */
export const duet: ModeDefinition = {
  name: 'duet',
  slotCount: (versionCount) => versionCount,
  paired: true,
  rounds: true,
  *plan({ versionCount, warmup, rounds, rng }) {
    for (let round = 0; round < warmup + rounds; round++) {
      yield {
        round,
        warmup: round < warmup,
        versions: indexes(versionCount),
        slots: shuffled(versionCount, rng),
        endsRound: true,
        stagger: shuffled(versionCount, rng),
      };
    }
  },
};
