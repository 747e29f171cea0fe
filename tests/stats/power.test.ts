import { minimumDetectableEffect, requiredSampleSize } from '../../src/stats/power.js';

describe('sample size and minimum detectable effect', () => {
  it('follows n = 2((z_{1-α/2} + z_{1-β})/d)², d = change / CV', () => {
    // α = 0.05, power 0.8: z = 1.959964 + 0.841621 = 2.801585; d = 0.05 / 0.1 = 0.5
    // n = 2 (2.801585 / 0.5)² = 62.79 → 63
    expect(requiredSampleSize(0.05, 0.1, { level: 0.95, power: 0.8 })).toBe(63);
    // paired: one-sample formula, half as many
    expect(requiredSampleSize(0.05, 0.1, { level: 0.95, power: 0.8, paired: true })).toBe(32);
    // defaults: level 0.99, power 0.8: z = 2.575829 + 0.841621 = 3.41745
    expect(requiredSampleSize(0.01, 0.02)).toBe(Math.ceil(2 * (3.4174502 / 0.5) ** 2));
    expect(requiredSampleSize(0, 0.1)).toBe(Infinity);
  });

  it('MDE inverts the sample size', () => {
    for (const n of [10, 30, 100, 1000]) {
      const mde = minimumDetectableEffect(n, 0.07, { level: 0.99 });
      expect(requiredSampleSize(mde * 1.0001, 0.07, { level: 0.99 })).toBeLessThanOrEqual(n);
      expect(requiredSampleSize(mde * 0.99, 0.07, { level: 0.99 })).toBeGreaterThan(n);
    }
  });

  it('rejects bad options', () => {
    expect(() => requiredSampleSize(0.05, 0.1, { level: 1.2 })).toThrow(
      'level must be in (0, 1), got 1.2',
    );
    expect(() => minimumDetectableEffect(0, 0.1)).toThrow('n must be ≥ 1, got 0');
    expect(() => minimumDetectableEffect(10, -1)).toThrow('cv must be ≥ 0, got -1');
  });
});
