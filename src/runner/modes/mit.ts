import { indexes, type ModeDefinition } from './types.js';

/**
 * Multiple interleaved trials: rounds in a fixed order. Vulnerable to changes that recur with
 * the period of a round (Abedi & Brecht, §4.3); kept to show why RMIT randomizes. Analysed
 * unpaired, as in the paper.
 */
export const mit: ModeDefinition = {
  name: 'mit',
  slotCount: () => 1,
  paired: false,
  rounds: true,
  *plan({ versionCount, warmup, rounds }) {
    for (let round = 0; round < warmup + rounds; round++) {
      for (const version of indexes(versionCount)) {
        yield {
          round,
          warmup: round < warmup,
          versions: [version],
          slots: [0],
          endsRound: version === versionCount - 1,
        };
      }
    }
  },
};
