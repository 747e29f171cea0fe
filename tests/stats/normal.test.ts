import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { normalCdf, normalPdf, normalPpf, normalSf } from '../../src/stats/normal.js';

interface NormalFixture {
  cdf: { x: number; cdf: number; sf: number }[];
  ppf: { p: number; x: number }[];
}

const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/scipy/normal.json', import.meta.url), 'utf8'),
) as NormalFixture;

function relativeError(actual: number, expected: number): number {
  if (actual === expected) return 0;
  return Math.abs(actual - expected) / Math.abs(expected);
}

// scipy's ndtr itself is off by up to ~1.2e-13 relative near |x| = 37 (it rounds x/√2 before
// erfc; mpmath agrees with our values there), so 1e-12 is the brief's bound with headroom.
const REL = 1e-12;

describe('normal distribution against scipy.special.ndtr / ndtri', () => {
  it('has enough reference points, including both far tails', () => {
    expect(fixture.cdf.length).toBeGreaterThan(150);
    expect(Math.min(...fixture.ppf.map((c) => c.p))).toBeLessThanOrEqual(1e-300);
    expect(Math.max(...fixture.ppf.map((c) => c.p))).toBeGreaterThanOrEqual(1 - 1e-16);
  });

  it('normalCdf matches ndtr(x) for |x| ≤ 37.5', () => {
    const worst = Math.max(...fixture.cdf.map((c) => relativeError(normalCdf(c.x), c.cdf)));
    expect(worst).toBeLessThanOrEqual(REL);
  });

  it('normalSf matches ndtr(−x), computed in the tail rather than as 1 − Φ', () => {
    const worst = Math.max(...fixture.cdf.map((c) => relativeError(normalSf(c.x), c.sf)));
    expect(worst).toBeLessThanOrEqual(REL);
    expect(normalSf(37)).toBeGreaterThan(5e-300);
  });

  it('normalPpf matches ndtri(p) for p in [1e-300, 1 − 1e-16]', () => {
    for (const c of fixture.ppf) {
      expect(relativeError(normalPpf(c.p), c.x)).toBeLessThanOrEqual(REL);
    }
  });

  it('knows the textbook values', () => {
    expect(normalCdf(0)).toBe(0.5);
    expect(normalPpf(0.5)).toBe(0);
    expect(normalPpf(0.975)).toBeCloseTo(1.959963984540054, 14);
    expect(normalPdf(0)).toBeCloseTo(0.3989422804014327, 16);
    expect(normalPpf(0)).toBe(-Infinity);
    expect(normalPpf(1)).toBe(Infinity);
    expect(normalCdf(-Infinity)).toBe(0);
    expect(normalSf(-Infinity)).toBe(1);
  });
});

describe('normal distribution properties', () => {
  it('Φ(x) + Q(x) = 1 and Q(x) = Φ(−x)', () => {
    fc.assert(
      fc.property(fc.double({ min: -40, max: 40, noNaN: true }), (x) => {
        expect(Math.abs(normalCdf(x) + normalSf(x) - 1)).toBeLessThanOrEqual(4e-16);
        expect(normalSf(x)).toBe(normalCdf(-x));
      }),
    );
  });

  it('normalPpf inverts normalCdf', () => {
    fc.assert(
      fc.property(fc.double({ min: -37, max: 8, noNaN: true }), (x) => {
        const back = normalPpf(normalCdf(x));
        // the round trip can only be as good as Φ's resolution at x: dx ≈ ulp(Φ)/φ(x)
        const resolution = (Number.EPSILON * normalCdf(x)) / normalPdf(x);
        expect(Math.abs(back - x)).toBeLessThanOrEqual(1e-13 * Math.abs(x) + 4 * resolution);
      }),
    );
  });

  it('is monotone', () => {
    fc.assert(
      fc.property(fc.double({ min: -37, max: 37, noNaN: true }), (x) => {
        expect(normalCdf(x + 0.01)).toBeGreaterThanOrEqual(normalCdf(x));
      }),
    );
  });
});

describe('normal distribution input checks', () => {
  it('rejects NaN and probabilities outside [0, 1], naming the argument', () => {
    expect(() => normalCdf(NaN)).toThrow(RangeError);
    expect(() => normalSf(NaN)).toThrow(/x must be a number/);
    expect(() => normalPpf(1.5)).toThrow(/p must be a probability in \[0, 1\], got 1.5/);
    expect(() => normalPpf(-0.1)).toThrow(RangeError);
    expect(() => normalPpf(NaN)).toThrow(/got NaN/);
  });
});
