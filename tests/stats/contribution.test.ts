import { readFileSync } from 'node:fs';
import { contributionStandardErrors, type ChunkCounts } from '../../src/stats/chunk-bootstrap.js';
import { contributionInterval, rescaleRatioInterval } from '../../src/stats/contribution.js';
import { wilsonInterval } from '../../src/stats/proportion.js';
import { createRng } from '../../src/stats/rng.js';
import { newcombeInterval } from '../../src/stats/two-proportions.js';

interface Rescale {
  estimate: number;
  lower: number;
  upper: number;
  level: number;
  target: number;
  expectedLower: number;
  expectedUpper: number;
}
interface Mover {
  kh: number;
  nh: number;
  kb: number;
  nb: number;
  r: number;
  rLower: number;
  rUpper: number;
  level: number;
  estimate: number;
  lower: number;
  upper: number;
}
interface Group {
  rows: number[][];
  totals: number[];
  work: number[];
}
interface Boot {
  base: Group;
  head: Group;
  ratio: { fixed: number } | { periodRatio: number };
  resamples: number;
  se: number[];
}

const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/scipy/contribution.json', import.meta.url), 'utf8'),
) as { rescale: Rescale[]; mover: Mover[]; bootstrap: Boot[] };

const counts = (g: Group): ChunkCounts => ({
  rows: g.rows.map((r) => Float64Array.from(r)),
  totals: Float64Array.from(g.totals),
  work: Float64Array.from(g.work),
});

describe('rescaleRatioInterval against scipy.stats.norm', () => {
  it('matches every reference to 1e-12 and keeps an asymmetric interval asymmetric', () => {
    expect(fixture.rescale.length).toBeGreaterThan(30);
    for (const c of fixture.rescale) {
      const got = rescaleRatioInterval(c, c.target);
      expect(Math.abs(got.lower - c.expectedLower)).toBeLessThan(1e-12);
      expect(Math.abs(got.upper - c.expectedUpper)).toBeLessThan(1e-12);
      expect(got.level).toBe(c.target);
    }
  });

  it('widens with the level, leaves it at the same level, and refuses a bad interval', () => {
    const r = { estimate: 1.06, lower: 1.045, upper: 1.075, level: 0.99 };
    expect(rescaleRatioInterval(r, 0.99)).toMatchObject({ lower: 1.045, upper: 1.075 });
    const wide = rescaleRatioInterval(r, 0.9999);
    expect(wide.lower).toBeLessThan(1.045);
    expect(wide.upper).toBeGreaterThan(1.075);
    expect(() => rescaleRatioInterval({ ...r, lower: 1.07 }, 0.999)).toThrow(
      /need 0 < lower ≤ estimate ≤ upper, got 1.07 ≤ 1.06 ≤ 1.075/,
    );
    expect(() => rescaleRatioInterval(r, 1)).toThrow(/target level must be in \(0, 1\), got 1/);
  });
});

describe('contributionInterval (MOVER) against statsmodels', () => {
  it('matches the reference built from statsmodels Wilson intervals to 1e-10', () => {
    expect(fixture.mover.some((c) => c.nh === 1_000_000 && c.level === 0.9997)).toBe(true);
    let worst = 0;
    for (const c of fixture.mover) {
      const got = contributionInterval(
        wilsonInterval(c.kh, c.nh, c.level),
        wilsonInterval(c.kb, c.nb, c.level),
        { estimate: c.r, lower: c.rLower, upper: c.rUpper },
      );
      worst = Math.max(
        worst,
        Math.abs(got.estimate - c.estimate),
        Math.abs(got.lower - c.lower),
        Math.abs(got.upper - c.upper),
      );
    }
    expect(worst).toBeLessThan(1e-10);
  });

  it('is Newcombe’s interval of h − b when r is exactly 1', () => {
    for (const [kh, nh, kb, nb] of [
      [30, 400, 12, 380],
      [0, 50, 7, 60],
      [900, 1000, 1000, 1000],
    ] as const) {
      const n = newcombeInterval(kh, nh, kb, nb, 0.999);
      const c = contributionInterval(wilsonInterval(kh, nh, 0.999), wilsonInterval(kb, nb, 0.999), {
        estimate: 1,
        lower: 1,
        upper: 1,
      });
      expect(c.lower).toBeCloseTo(n.lower, 14);
      expect(c.upper).toBeCloseTo(n.upper, 14);
    }
  });

  it('property: widens as the ratio’s interval widens, and by the share it multiplies', () => {
    const rng = createRng(8);
    for (let i = 0; i < 500; i++) {
      const share = (p: number) => ({ estimate: p, lower: p * 0.95, upper: Math.min(1, p * 1.05) });
      const h = share(rng.nextFloat());
      const b = share(rng.nextFloat());
      const r = 0.5 + rng.nextFloat();
      const w = rng.nextFloat() * 0.1;
      const narrow = contributionInterval(h, b, { estimate: r, lower: r - w, upper: r + w });
      const wide = contributionInterval(h, b, { estimate: r, lower: r - 2 * w, upper: r + 2 * w });
      expect(wide.lower).toBeLessThanOrEqual(narrow.lower);
      expect(wide.upper).toBeGreaterThanOrEqual(narrow.upper);
      expect(narrow.lower).toBeLessThanOrEqual(narrow.estimate);
      expect(narrow.upper).toBeGreaterThanOrEqual(narrow.estimate);
      expect(narrow.estimate).toBeCloseTo(r * h.estimate - b.estimate, 14);
    }
    expect(() =>
      contributionInterval(
        { estimate: 0.5, lower: 0.6, upper: 0.7 },
        { estimate: 0.5, lower: 0.4, upper: 0.6 },
        { estimate: 1, lower: 1, upper: 1 },
      ),
    ).toThrow(/head share: need lower ≤ estimate ≤ upper, got 0.6 ≤ 0.5 ≤ 0.7/);
  });
});

describe('contributionStandardErrors against a numpy chunk bootstrap', () => {
  it('matches numpy’s standard errors (200,000 resamples each) within 2%', () => {
    for (const c of fixture.bootstrap) {
      const ratio = 'fixed' in c.ratio ? c.ratio : { fromChunks: c.ratio };
      const se = contributionStandardErrors(
        counts(c.base),
        counts(c.head),
        ratio,
        c.resamples,
        createRng(11),
      );
      for (const [j, expected] of c.se.entries()) {
        expect(se[j]! / expected).toBeGreaterThan(0.98);
        expect(se[j]! / expected).toBeLessThan(1.02);
      }
    }
  });

  it('a ratio from the chunks adds the variation of their totals; a fixed one does not', () => {
    const c = fixture.bootstrap[1]!;
    const fromChunks = contributionStandardErrors(
      counts(c.base),
      counts(c.head),
      { fromChunks: { periodRatio: 1 } },
      4000,
      createRng(2),
    );
    const fixed = contributionStandardErrors(
      counts(c.base),
      counts(c.head),
      { fixed: 1 },
      4000,
      createRng(2),
    );
    // the big row (60% of samples) moves with the chunks' totals
    expect(fromChunks[0]!).toBeGreaterThan(1.5 * fixed[0]!);
  });

  it('refuses a ratio from chunks without each chunk’s work', () => {
    const c = fixture.bootstrap[0]!;
    const { work: _work, ...noWork } = counts(c.base);
    expect(() =>
      contributionStandardErrors(
        noWork,
        counts(c.head),
        { fromChunks: { periodRatio: 1 } },
        10,
        createRng(1),
      ),
    ).toThrow('base: a ratio from chunks needs each chunk’s work; got 0 for 8 chunks');
  });
});
