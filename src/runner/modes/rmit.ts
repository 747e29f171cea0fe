import { shuffled, type ModeDefinition } from './types.js';

/**
 * Randomized multiple interleaved trials (Abedi & Brecht, ICPE'17): in each round every
 * version runs one trial, in a fresh random order, so no version is favoured by periodic
 * changes of the machine. Rounds are the blocks of a randomized block design.
 */
export const rmit: ModeDefinition = {
  name: 'rmit',
  slotCount: () => 1,
  paired: true,
  rounds: true,
  *plan({ versionCount, warmup, rounds, rng }) {
    for (let round = 0; round < warmup + rounds; round++) {
      const order = shuffled(versionCount, rng);
      for (const [i, version] of order.entries()) {
        yield {
          round,
          warmup: round < warmup,
          versions: [version],
          slots: [0],
          endsRound: i === versionCount - 1,
        };
      }
    }
  },
};
