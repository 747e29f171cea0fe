import { indexes, type ModeDefinition } from './types.js';

/**
 * Multiple consecutive trials: all trials of the first version, then all of the next. Any
 * drift of the machine over the run becomes a difference between versions (Abedi & Brecht
 * found 38% between identical systems); kept for contrast.
 */
export const mct: ModeDefinition = {
  name: 'mct',
  slotCount: () => 1,
  paired: false,
  rounds: false,
  *plan({ versionCount, warmup, rounds }) {
    for (const version of indexes(versionCount)) {
      for (let round = 0; round < warmup + rounds; round++) {
        yield { round, warmup: round < warmup, versions: [version], slots: [0], endsRound: true };
      }
    }
  },
};
