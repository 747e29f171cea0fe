/**
 * Planted-pattern benchmark of the variability analysis (issue 14): synthetic nightly
 * histories with a known step, drift, hour-of-day or weekday effect, or pure noise; over many
 * seeds, how often is each found, and how often is something found that is not there?
 *
 *   npm run bench:variability                 # 200 seeds per case (about 10 minutes)
 *   npm run bench:variability -- --seeds 40   # fewer
 *   npm run bench:variability -- --quick      # 10 seeds, a smoke test
 *
 * Pure statistics (no timing-sensitive measurement): run it under `flock -s`. Writes
 * benchmarks/results/variability.json and prints the tables of BENCHMARKS.md.
 */
import { writeFileSync } from 'node:fs';
import { normalCdf, normalPpf } from '../src/stats/normal.js';
import { eDivisive } from '../src/stats/e-divisive.js';
import { relativeToSegments } from '../src/variability/normalise.js';
import { patternOf } from '../src/variability/patterns.js';
import type { SeriesPoint } from '../src/variability/series.js';
import { positive } from './args.js';
import { plantedValues, type Planted } from './variability/history.js';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const seedsAt = args.indexOf('--seeds');
const SEEDS = seedsAt >= 0 ? positive('--seeds', args[seedsAt + 1] ?? '') : quick ? 10 : 200;
const ALPHA = 0.01;
const PERMUTATIONS = 499;
const CV = 0.02;
const TOLERANCE = 5; // a change point counts as the planted step within ±5 runs
const results: Record<string, unknown> = {
  seeds: SEEDS,
  alpha: ALPHA,
  permutations: PERMUTATIONS,
  cv: CV,
};

const detect = (values: number[], seed: number) =>
  eDivisive(values, { alpha: ALPHA, permutations: PERMUTATIONS, seed }).changePoints.map(
    (c) => c.index,
  );
const pct = (x: number, d = 1) => `${(x * 100).toFixed(d)}%`;
const wilson95 = (k: number, n: number) => {
  const z = 1.959963984540054;
  const p = k / n;
  const c = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const h = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / (1 + (z * z) / n);
  return `${k}/${n} (${pct(p)}, 95% CI ${pct(Math.max(0, c - h))}–${pct(Math.min(1, c + h))})`;
};
const timed = <T>(label: string, f: () => T): T => {
  const t = process.hrtime.bigint();
  const r = f();
  console.error(`  ${label}: ${(Number(process.hrtime.bigint() - t) / 1e9).toFixed(1)} s`);
  return r;
};

// ---------------------------------------------------------------- steps: offline and online
const BEFORE = 80;
const stepRows: string[] = [];
for (const size of [0.01, 0.02, 0.05]) {
  const r = timed(`step ${pct(size, 0)}`, () => {
    let located = 0;
    const delays: number[] = [];
    for (let s = 0; s < SEEDS; s++) {
      const planted: Planted = {
        runs: BEFORE + 40,
        seed: 1000 + s,
        cv: CV,
        step: { at: BEFORE, size },
      };
      const { values } = plantedValues(planted);
      // offline: the whole history, 40 runs after the step
      if (detect(values, s).some((i) => Math.abs(i - BEFORE) <= TOLERANCE)) located++;
      // online: the nightly analysis after each new run, until the step is found
      let delay = Infinity;
      for (let k = 1; k <= 30; k++) {
        if (detect(values.slice(0, BEFORE + k), s).some((i) => Math.abs(i - BEFORE) <= TOLERANCE)) {
          delay = k;
          break;
        }
      }
      delays.push(delay);
    }
    return { located, delays };
  });
  const within = (k: number) => r.delays.filter((d) => d <= k).length;
  const sorted = [...r.delays].sort((a, b) => a - b);
  const medianDelay = sorted[Math.floor(sorted.length / 2)]!;
  // the best any test can do knowing where the step landed: a z test of the mean shift with
  // BEFORE runs before and k after, two-sided at the same alpha
  const oracle = (k: number) =>
    normalCdf((size / CV) * Math.sqrt((BEFORE * k) / (BEFORE + k)) - normalPpf(1 - ALPHA / 2));
  results[`step-${size}`] = { located: r.located, delays: r.delays };
  stepRows.push(
    `| ${pct(size, 0)} (${(size / CV).toFixed(1)} σ) | ${wilson95(r.located, SEEDS)} | ${pct(within(5) / SEEDS, 0)} (oracle ${pct(oracle(5), 0)}) | ${pct(within(10) / SEEDS, 0)} (oracle ${pct(oracle(10), 0)}) | ${pct(within(20) / SEEDS, 0)} (oracle ${pct(oracle(20), 0)}) | ${Number.isFinite(medianDelay) ? medianDelay : '> 30'} |`,
  );
}

// ---------------------------------------------------------------- noise and drift, 365 nights
const falseRows: string[] = [];
for (const [label, planted] of [
  ['pure noise', {}],
  ['slow drift +2% over the year', { drift: 0.02 / 365 }],
  ['slow drift +5% over the year', { drift: 0.05 / 365 }],
] as const) {
  const seeds = label === 'pure noise' ? SEEDS * 2 : Math.max(10, SEEDS / 4);
  const count = timed(label, () => {
    let any = 0;
    for (let s = 0; s < seeds; s++) {
      const { values } = plantedValues({ runs: 365, seed: 5000 + s, cv: CV, ...planted });
      if (detect(values, s).length > 0) any++;
    }
    return any;
  });
  results[label] = { histories: seeds, withChangePoint: count };
  falseRows.push(`| ${label} | ${wilson95(count, seeds)} |`);
}

// ---------------------------------------------------------------- hour and weekday effects
const patternRows: string[] = [];
const patternCase = (
  label: string,
  kind: 'hour' | 'weekday',
  days: number,
  p: Omit<Planted, 'runs' | 'seed'>,
): void => {
  const runs = days * (24 / (p.everyHours ?? 24));
  const found = timed(label, () => {
    let k = 0;
    for (let s = 0; s < SEEDS; s++) {
      const { at, values } = plantedValues({ runs, seed: 9000 + s, cv: CV, ...p });
      const points = values.map((value, i) => ({ value, at: at[i]! }) as SeriesPoint);
      const relative = relativeToSegments(points, [[0, points.length]]);
      const r = patternOf(kind, at, relative, {
        alpha: 0.05,
        level: 0.95,
        resamples: 200,
        seed: s,
        effect: 0.01,
      });
      if (r.found) k++;
    }
    return k;
  });
  results[`pattern ${label}`] = { runs, found };
  patternRows.push(`| ${label} | ${runs} | ${wilson95(found, SEEDS)} |`);
};
patternCase('hour of day, no effect, 4 runs a day, 30 days', 'hour', 30, { everyHours: 6 });
patternCase('hour of day, +2% at 14:00, 30 days', 'hour', 30, {
  everyHours: 6,
  hourEffect: { 14: 0.02 },
});
patternCase('hour of day, +2% at 14:00, 60 days', 'hour', 60, {
  everyHours: 6,
  hourEffect: { 14: 0.02 },
});
patternCase('weekday, no effect, nightly, 90 days', 'weekday', 90, {});
patternCase('weekday, +2.5% Sat and Sun, 90 days', 'weekday', 90, {
  weekdayEffect: { 5: 0.025, 6: 0.025 },
});
patternCase('weekday, +2.5% Sat and Sun, 180 days', 'weekday', 180, {
  weekdayEffect: { 5: 0.025, 6: 0.025 },
});

// ---------------------------------------------------------------- cost
const { values } = plantedValues({ runs: 365, seed: 1, cv: CV, step: { at: 200, size: 0.05 } });
const t = process.hrtime.bigint();
const found = detect(values, 1);
const seconds = Number(process.hrtime.bigint() - t) / 1e9;
results.cost = { runs: 365, seconds, changePoints: found };

console.log(
  `\nSeeds per case: ${SEEDS}; E-Divisive α = ${ALPHA}, ${PERMUTATIONS} permutations; night-to-night CV ${pct(CV, 0)}.\n`,
);
console.log(
  `| step | located within ±${TOLERANCE} runs (${BEFORE} runs before, 40 after) | found ≤ 5 runs after landing | ≤ 10 runs | ≤ 20 runs | median runs to find |`,
);
console.log('| :-- | :-- | :-- | :-- | :-- | --: |');
for (const r of stepRows) console.log(r);
console.log('\n| 365 nights of | histories with a change point |\n| :-- | :-- |');
for (const r of falseRows) console.log(r);
console.log('\n| planted | runs | pattern found (Kruskal–Wallis p < 0.05) |\n| :-- | --: | :-- |');
for (const r of patternRows) console.log(r);
console.log(
  `\nE-Divisive on 365 nights with a 5% step: ${seconds.toFixed(2)} s (change points ${found.join(', ')}).`,
);
if (!quick)
  writeFileSync(
    new URL('./results/variability.json', import.meta.url),
    `${JSON.stringify(results)}\n`,
  );
