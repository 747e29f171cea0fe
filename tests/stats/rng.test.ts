import { checkSeed, createRng } from '../../src/stats/rng.js';

describe('createRng', () => {
  it('is reproducible from its seed', () => {
    const a = createRng(42);
    const b = createRng(42);
    const xs = Array.from({ length: 100 }, () => a.nextUint32());
    const ys = Array.from({ length: 100 }, () => b.nextUint32());
    expect(xs).toEqual(ys);
    expect(a.seed).toBe(42);
  });

  it('gives different streams for different seeds', () => {
    const a = createRng(1);
    const b = createRng(2);
    expect(a.nextUint32()).not.toBe(b.nextUint32());
  });

  it('draws indices uniformly in [0, n)', () => {
    const rng = createRng(7);
    const n = 10;
    const counts = new Array<number>(n).fill(0);
    const draws = 100_000;
    for (let i = 0; i < draws; i++) {
      const k = rng.nextIndex(n);
      expect(k).toBeGreaterThanOrEqual(0);
      expect(k).toBeLessThan(n);
      counts[k]! += 1;
    }
    // chi-square with 9 df: the 0.999 quantile is 27.88
    const expected = draws / n;
    const chi2 = counts.reduce((s, c) => s + (c - expected) ** 2 / expected, 0);
    expect(chi2).toBeLessThan(27.88);
  });

  it('draws floats in [0, 1) with mean 1/2 and normals with mean 0, sd 1', () => {
    const rng = createRng(3);
    let s = 0;
    let sn = 0;
    let sn2 = 0;
    const k = 50_000;
    for (let i = 0; i < k; i++) {
      const u = rng.nextFloat();
      expect(u).toBeGreaterThanOrEqual(0);
      expect(u).toBeLessThan(1);
      s += u;
      const z = rng.nextNormal();
      sn += z;
      sn2 += z * z;
    }
    expect(Math.abs(s / k - 0.5)).toBeLessThan(0.01);
    expect(Math.abs(sn / k)).toBeLessThan(0.03);
    expect(Math.abs(sn2 / k - 1)).toBeLessThan(0.03);
  });

  it('refuses bad seeds and bad ranges', () => {
    expect(() => checkSeed(-1)).toThrow(/seed must be an integer from 0 to 4294967295, got -1/);
    expect(() => checkSeed(1.5)).toThrow(/got 1.5/);
    expect(() => createRng(1).nextIndex(0)).toThrow(/n must be an integer/);
  });
});
