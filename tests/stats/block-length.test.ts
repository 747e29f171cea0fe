import { readFileSync } from 'node:fs';
import {
  autoBlockLength,
  dependenceLags,
  ljungBox,
  optimalBlockLength,
} from '../../src/stats/block-length.js';
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

const reference = JSON.parse(
  readFileSync(new URL('../fixtures/scipy/ljung_box.json', import.meta.url), 'utf8'),
) as {
  cases: { kind: string; series: number[]; lags: number; statistic: number; pValue: number }[];
};

describe('Ljung–Box against statsmodels.stats.diagnostic.acorr_ljungbox', () => {
  it.each(reference.cases.map((c) => [`${c.kind} n=${c.series.length} lags=${c.lags}`, c]))(
    '%s',
    (_, c) => {
      const r = ljungBox(c.series, c.lags);
      expect(r.statistic).toBeCloseTo(c.statistic, 9);
      expect(Math.abs(r.pValue - c.pValue)).toBeLessThan(1e-9 + 1e-9 * c.pValue);
    },
  );

  it('refuses lags it cannot compute, and calls a constant series independent', () => {
    expect(() => ljungBox([1, 2, 3], 3)).toThrow(
      'lags must be an integer from 1 to n − 1 = 2, got 3',
    );
    expect(ljungBox([2, 2, 2, 2, 2], 2).pValue).toBe(1);
    expect(dependenceLags(8)).toBe(1);
    expect(dependenceLags(27)).toBe(5);
    expect(dependenceLags(400)).toBe(10);
  });
});

describe('the block length a paired analysis uses (auto)', () => {
  const share = (n: number, phi: number, runs: number, seed: number) => {
    let blocked = 0;
    for (let r = 0; r < runs; r++)
      if (autoBlockLength(ar1(n, phi, seed * 10_000 + r)) > 1) blocked++;
    return blocked / runs;
  };

  it('takes independent pairs as independent: blocks in at most the test level of them', () => {
    // Politis–White alone blocked 3.5% of independent series of 8 to 36 values, at n/3 mostly
    for (const n of [9, 15, 27, 36]) expect(share(n, 0, 2000, n)).toBeLessThanOrEqual(0.012);
  });

  it('still finds real autocorrelation and sizes its blocks', () => {
    expect(share(60, 0.8, 200, 7)).toBeGreaterThan(0.9);
    expect(share(400, 0.5, 100, 8)).toBe(1);
    expect(autoBlockLength(ar1(2000, 0.9, 4))).toBe(optimalBlockLength(ar1(2000, 0.9, 4)));
    expect(autoBlockLength([1, 2, 3, 4, 5, 6, 7])).toBe(1);
  });
});
