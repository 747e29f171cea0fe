import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { adjustPValues, benjaminiHochberg, holm } from '../../src/stats/adjust.js';

interface Case {
  name: string;
  p: number[];
  method: 'holm' | 'fdr_bh';
  adjusted: number[];
}
const reference = JSON.parse(
  readFileSync(new URL('../fixtures/scipy/adjust.json', import.meta.url), 'utf8'),
) as { cases: Case[] };

describe('p-value adjustment agrees with statsmodels.multipletests', () => {
  it.each(reference.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const ours = c.method === 'holm' ? holm(c.p) : benjaminiHochberg(c.p);
    ours.forEach((v, i) => expect(v).toBeCloseTo(c.adjusted[i]!, 12));
  });
});

describe('p-value adjustment properties', () => {
  const family = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), {
    minLength: 1,
    maxLength: 30,
  });
  it('adjusted p-values are ≥ raw, ≤ 1, and Holm ≥ BH', () => {
    fc.assert(
      fc.property(family, (ps) => {
        const h = holm(ps);
        const b = benjaminiHochberg(ps);
        ps.forEach((p, i) => {
          expect(h[i]!).toBeGreaterThanOrEqual(p - 1e-15);
          expect(b[i]!).toBeGreaterThanOrEqual(p - 1e-15);
          expect(h[i]!).toBeLessThanOrEqual(1);
          expect(b[i]!).toBeLessThanOrEqual(1);
          expect(h[i]!).toBeGreaterThanOrEqual(b[i]! - 1e-12);
        });
      }),
    );
  });

  it('preserves the order of the raw p-values', () => {
    fc.assert(
      fc.property(family, (ps) => {
        for (const adjusted of [holm(ps), benjaminiHochberg(ps)]) {
          ps.forEach((p, i) =>
            ps.forEach((q, j) => {
              if (p < q) expect(adjusted[i]!).toBeLessThanOrEqual(adjusted[j]!);
            }),
          );
        }
      }),
    );
  });

  it('none returns a copy; bad p-values are refused with their position', () => {
    expect(adjustPValues([0.2, 0.01], 'none')).toEqual([0.2, 0.01]);
    expect(() => holm([0.1, 1.5])).toThrow('p-value #2 is 1.5; p-values must be in [0, 1]');
    expect(() => benjaminiHochberg([Number.NaN])).toThrow(/#1 is NaN/);
  });
});
