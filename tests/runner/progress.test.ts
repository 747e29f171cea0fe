import { renderProgress } from '../../src/runner/progress.js';

describe('renderProgress', () => {
  it('draws the bar, counts, elapsed time and ETA', () => {
    expect(renderProgress({ done: 5, total: 20, elapsedMs: 65_000, etaMs: 195_000 }, 8)).toBe(
      '[##------] 5/20 trials  elapsed 1m05s  ETA 3m15s',
    );
    expect(renderProgress({ done: 0, total: 20, elapsedMs: 0, etaMs: null }, 4)).toBe(
      '[----] 0/20 trials  elapsed 0s  ETA ?',
    );
  });
});
