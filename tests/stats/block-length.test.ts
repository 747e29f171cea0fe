import { optimalBlockLength } from '../../src/stats/block-length.js';
import { createRng } from '../../src/stats/rng.js';

function ar1(n: number, phi: number, seed: number): number[] {
  const rng = createRng(seed);
  const xs: number[] = [];
  let x = 0;
  for (let i = 0; i < n; i++) {
    x = phi * x + rng.nextNormal();
    xs.push(x);
  }
  return xs;
}

describe('automatic block length (Politis & White 2004)', () => {
  it('is 1 or close to it for independent data', () => {
    for (const seed of [1, 2, 3])
      expect(optimalBlockLength(ar1(1000, 0, seed))).toBeLessThanOrEqual(3);
  });

  it('grows with autocorrelation', () => {
    const weak = optimalBlockLength(ar1(2000, 0.3, 4));
    const strong = optimalBlockLength(ar1(2000, 0.9, 4));
    expect(strong).toBeGreaterThan(weak);
    expect(strong).toBeGreaterThanOrEqual(10);
    // theory for AR(1) φ = 0.9, n = 2000 (circular block): b ≈ (2G²/D)^{1/3} n^{1/3} ≈ 37
    expect(strong).toBeLessThan(80);
  });

  it('is bounded and handles degenerate input', () => {
    expect(optimalBlockLength([1, 2, 3])).toBe(1);
    expect(optimalBlockLength(new Array(100).fill(5))).toBe(1);
    const trend = Array.from({ length: 300 }, (_, i) => i);
    expect(optimalBlockLength(trend)).toBeLessThanOrEqual(
      Math.ceil(Math.min(3 * Math.sqrt(300), 100)),
    );
  });
});
