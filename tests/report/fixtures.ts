import {
  COMPARISON_REPORT_SCHEMA_VERSION,
  type BenchmarkResult,
  type ComparisonReport,
} from '../../src/contracts/comparison.js';
import type { RunMeta } from '../../src/report/run-meta.js';
import { compare } from '../../src/stats/compare.js';
import { adjustFamily } from '../../src/stats/family.js';
import { createRng } from '../../src/stats/rng.js';

/** Paired data with a true relative change and a spread, always the same (seeded). */
function pairs(n: number, change: number, spread: number, seed: number) {
  const rng = createRng(seed);
  const base: number[] = [];
  const head: number[] = [];
  for (let i = 0; i < n; i++) {
    const common = 10 * Math.exp(0.05 * rng.nextNormal());
    base.push(common * Math.exp(spread * rng.nextNormal()));
    head.push(common * (1 + change) * Math.exp(spread * rng.nextNormal()));
  }
  return { base, head };
}

const OPTIONS = { paired: true, level: 0.99, resamples: 2000, seed: 11, threshold: 0.05 };

/**
 * A report with one benchmark of each verdict, a hostile name, one whose values form no ratio
 * (a base of 0) and one that failed.
 */
export function sampleReport(): ComparisonReport {
  const specs: [string, number, number][] = [
    ['parse', 0.12, 0.01],
    ['render', -0.09, 0.01],
    ['serialize @octocat <b>|</b>', 0.0, 0.005],
    ['alloc', 0.05, 0.02],
  ];
  const comparisons = adjustFamily(
    specs.map(([, change, spread], i) => {
      const { base, head } = pairs(20, change, spread, i + 1);
      return compare(base, head, { ...OPTIONS, blockLength: 1 });
    }),
    'holm',
  );
  const results: BenchmarkResult[] = specs.map(([name], i) => ({
    benchmark: name,
    unit: 'ms',
    biggerIsBetter: false,
    valueKind: 'samples',
    baseline: 'base',
    version: 'head',
    comparison: comparisons[i]!,
    notComparable: null,
    error: null,
  }));
  const zeros = { n: 20, median: 0, mean: 0, gmean: null, sd: 0, cv: 0, mad: 0, min: 0, max: 0 };
  results.push({
    benchmark: 'parse - system',
    unit: 's',
    biggerIsBetter: false,
    valueKind: 'summary',
    baseline: 'base',
    version: 'head',
    comparison: null,
    notComparable: {
      reason: 'base values are all 0: a relative change (head/base − 1) is undefined',
      statistic: 'median',
      base: zeros,
      head: { ...zeros, median: 0.0004, mean: 0.0005, sd: 0.0003, cv: 0.6, max: 0.001 },
    },
    error: null,
  });
  results.push({
    benchmark: 'crashy',
    unit: 'ms',
    biggerIsBetter: false,
    valueKind: 'samples',
    baseline: 'base',
    version: 'head',
    comparison: null,
    notComparable: null,
    error: 'base has fewer than 2 values\n```\n@here </details>',
  });
  const summary = {
    regression: 0,
    improvement: 0,
    unchanged: 0,
    inconclusive: 0,
    notComparable: 1,
    error: 1,
  };
  for (const c of comparisons) summary[c.verdict]++;
  return {
    schemaVersion: COMPARISON_REPORT_SCHEMA_VERSION,
    scenario: 'core',
    mode: 'duet',
    paired: true,
    complete: true,
    stopReason: 'precision',
    isolation: {
      requested: 'auto',
      kind: 'cgroup-v2',
      slots: ['1', '2'],
      harnessCpus: '0',
      cgroup: '/sys/fs/cgroup/duetkit-1',
      warnings: ['SMT siblings share a core'],
    },
    settings: {
      level: 0.99,
      statistic: null,
      method: 'bca',
      threshold: 0.05,
      resamples: 2000,
      adjustment: 'holm',
      blockLength: 1,
      seed: 11,
      baseline: 'base',
    },
    results,
    summary,
  };
}

export const SAMPLE_META: RunMeta = {
  suite: 'core',
  runner:
    'GitHub Actions runner "GitHub Actions 3" (Linux X64 ubuntu24), AMD EPYC 7763, 4 CPUs, 16 GiB',
  durationSeconds: 83.4,
  versions: [
    { name: 'base', commit: '1111111111111111111111111111111111111111', source: 'ref main' },
    { name: 'head', commit: '2222222222222222222222222222222222222222', source: 'ref HEAD' },
  ],
};
