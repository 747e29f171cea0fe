import { readFileSync } from 'node:fs';
import { pairwiseMannWhitney } from '../../src/stats/pairwise.js';

const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/scipy/pairwise.json', import.meta.url), 'utf8'),
) as {
  cases: {
    name: string;
    groups: number[][];
    raw: (number | null)[][];
    holm: (number | null)[][];
  }[];
};

describe('pairwiseMannWhitney against scikit-posthocs posthoc_mannwhitney', () => {
  it.each(fixture.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const r = pairwiseMannWhitney(c.groups, 'holm');
    const k = c.groups.length;
    for (let i = 0; i < k; i++) {
      for (let j = 0; j < k; j++) {
        if (i === j) {
          expect(r.pValues[i]![j]).toBeNull();
          continue;
        }
        for (const [got, want] of [
          [r.pValues[i]![j]!, c.raw[i]![j]!],
          [r.adjusted[i]![j]!, c.holm[i]![j]!],
        ] as const) {
          expect(Math.abs(got - want)).toBeLessThanOrEqual(1e-9 * Math.max(want, 1e-300));
        }
      }
    }
  });

  it('adjusts k(k−1)/2 p-values as one family: never below the raw ones', () => {
    const r = pairwiseMannWhitney(fixture.cases[0]!.groups);
    r.pValues.forEach((row, i) =>
      row.forEach((p, j) => {
        if (p !== null) expect(r.adjusted[i]![j]!).toBeGreaterThanOrEqual(p);
      }),
    );
    expect(pairwiseMannWhitney(fixture.cases[0]!.groups, 'none').adjusted).toEqual(r.pValues);
  });
});
