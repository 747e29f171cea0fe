import { indexes, type ModeDefinition } from './types.js';

/**
 * Single trial: one measured trial per version, one after the other. Only meaningful when a
 * trial yields many samples (a benchmark tool's own repetitions); kept for contrast.
 */
export const single: ModeDefinition = {
  name: 'single',
  slotCount: () => 1,
  paired: false,
  rounds: false,
  *plan({ versionCount, warmup }) {
    for (const version of indexes(versionCount)) {
      for (let round = 0; round <= warmup; round++) {
        yield { round, warmup: round < warmup, versions: [version], slots: [0], endsRound: true };
      }
    }
  },
};
