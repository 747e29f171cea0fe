import { lookLevel, lookSchedule, sequentialPValue } from '../../src/stats/sequential.js';
import { trimmedMean } from '../../src/stats/trimmed-mean.js';
import { wilcoxonSignedRank } from '../../src/stats/wilcoxon.js';
import { holm } from '../../src/stats/adjust.js';
import { createRng } from '../../src/stats/rng.js';

describe('sequential looks', () => {
  it('schedules the looks and spends the whole error over them', () => {
    const s = lookSchedule(20, 3, 4);
    expect(s.pairs).toEqual([20, 60, 180, 540]);
    expect(s.weights.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(s.weights).toEqual([0.1, 0.2, 0.3, 0.4]);
    expect(lookLevel(0.99, s, 0)).toBeCloseTo(0.999, 12);
    expect(sequentialPValue(0.002, s, 1)).toBeCloseTo(0.01, 12);
    expect(sequentialPValue(0.5, s, 0)).toBe(1);
    expect(() => lookSchedule(1, 3, 4)).toThrow('the first look needs an integer ≥ 2 pairs, got 1');
  });

  /**
   * The worst case for optional stopping: A/A suites whose benchmarks stop as soon as their
   * test rejects, on the scheduled looks. With each look's p divided by its share (and the
   * interval at the look's level), Holm over the suite keeps the family-wise error ≤ α;
   * judging every look at the nominal α (the naive design) does not.
   */
  it('keeps the family-wise error of an A/A suite under stopping on the first rejection', () => {
    const rng = createRng(11);
    const s = lookSchedule(20, 3, 3); // 20, 60, 180
    const alpha = 0.05;
    const suites = 300;
    const benchmarks = 5;
    let honest = 0;
    let naive = 0;
    for (let e = 0; e < suites; e++) {
      const honestP: number[] = [];
      const naiveP: number[] = [];
      for (let b = 0; b < benchmarks; b++) {
        const d = Array.from(
          { length: 180 },
          () => rng.nextNormal() + (rng.nextFloat() < 0.1 ? 3 * rng.nextFloat() - 1.5 : 0),
        );
        let pHonest = 1;
        let pNaive = 1;
        for (let k = 0; k < s.pairs.length; k++) {
          const p = wilcoxonSignedRank(d.slice(0, s.pairs[k]!)).pValue;
          pHonest = sequentialPValue(p, s, k);
          pNaive = p;
          if (p < alpha) break; // stop on significance: the worst rule for an A/A
        }
        honestP.push(pHonest);
        naiveP.push(pNaive);
      }
      if (holm(honestP).some((p) => p < alpha)) honest++;
      if (holm(naiveP).some((p) => p < alpha)) naive++;
    }
    // binomial SE at 300 suites and 5%: 1.3 points
    expect(honest / suites).toBeLessThanOrEqual(alpha + 0.03);
    expect(naive / suites).toBeGreaterThan(honest / suites);
    process.stdout.write(`sequential FWER: honest ${honest}/${suites}, naive ${naive}/${suites}\n`);
  });

  it('the trimmed-mean interval at a look covers at its look level', () => {
    const rng = createRng(5);
    let covered = 0;
    for (let e = 0; e < 400; e++) {
      const d = Float64Array.from({ length: 20 }, () => 0.01 + 0.02 * rng.nextNormal()).sort();
      const ci = trimmedMean(d, 0.95);
      if (ci.lower <= 0.01 && 0.01 <= ci.upper) covered++;
    }
    expect(covered / 400).toBeGreaterThan(0.92);
  });
});
