/**
 * Planted-pattern benchmark of the variability analysis (issue 14): synthetic nightly
 * histories with a known step, drift, hour-of-day or weekday effect, or pure noise; over many
 * seeds, how often is each found, and how often is something found that is not there?
 *
 *   npm run bench:variability                 # 200 seeds per case (about 75 s on this VM)
 *   npm run bench:variability -- --seeds 40   # fewer
 *   npm run bench:variability -- --quick      # 10 seeds, a smoke test
 *
 * The nightly paired duet (`base-from-history: true`) is judged with real duet outcomes: the
 * windows of benchmarks/results/fidelity.json recorded by
 *   npm run bench:fidelity -- --windows --changes 0,0.02   (on a quiet machine, ~25 minutes)
 *
 * Pure statistics (no timing-sensitive measurement): run it under `flock -s`. Writes
 * benchmarks/results/variability.json and prints the tables of BENCHMARKS.md.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { normalCdf, normalPpf } from '../src/stats/normal.js';
import { createRng } from '../src/stats/rng.js';
import { callsChange } from '../src/stats/verdict.js';
import { eDivisive } from '../src/stats/e-divisive.js';
import { relativeToSegments } from '../src/variability/normalise.js';
import { patternOf } from '../src/variability/patterns.js';
import type { SeriesPoint } from '../src/variability/series.js';
import { positive } from './args.js';
import { pairedVerdict, plantedValues, type Planted } from './variability/history.js';

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

// ------------------------------------------- steps judged the night they land (paired duet)
// A nightly with `base-from-history: true` also runs a duet of tonight's head against the
// previous nightly's commit. Its outcomes are real, not modelled: the duet windows of
// benchmarks/results/fidelity.json (a C program timed by the command driver, 10 ms, one
// comparison per 5 s window, wall time), with 2% more work on the night the step lands and the
// same program on both sides every other night. Called: duetkit's verdict at a ±1% threshold.
/** The nightly example's threshold, and a coarser one for comparison. */
const PAIRED_THRESHOLDS = [0.005, 0.01];
interface Outcome {
  change: number;
  lower: number;
  upper: number;
}
const fidelity = JSON.parse(
  readFileSync(new URL('./results/fidelity.json', import.meta.url), 'utf8'),
) as {
  truths: { route: string; size: number; change: number; views: Record<string, Outcome> }[];
  windows: {
    route: string;
    size: number;
    change: number;
    mode: string;
    outcomes: (Outcome & { view: string })[];
  }[];
};
const windowsOf = (change: number): Outcome[] => {
  const w = fidelity.windows.find(
    (x) => x.route === 'c-command' && x.size === 10 && x.mode === 'duet' && x.change === change,
  );
  if (w === undefined)
    throw new Error(
      `benchmarks/results/fidelity.json has no duet windows of c-command 10 ms at +${change * 100}%: run npm run bench:fidelity -- --windows --changes ${change}`,
    );
  return w.outcomes.filter((o) => o.view === 'wall');
};
const called = (o: Outcome, threshold: number): boolean => callsChange(pairedVerdict(o, threshold));
const stepWindows = windowsOf(0.02);
const aaWindows = windowsOf(0);
const stepTruth =
  fidelity.truths.find((t) => t.route === 'c-command' && t.size === 10 && t.change === 0.02)?.views
    .wall?.change ?? null;
const delays2 = (results['step-0.02'] as { delays: number[] }).delays;
// beyond the recorded windows: the A/A changes' spread (normal) and half-widths, how often a
// lower bound would pass +t (or an upper bound −t) by chance, per night and over 365
const aaChanges = aaWindows.map((o) => o.change);
const aaMean = aaChanges.reduce((a, b) => a + b, 0) / aaChanges.length;
const aaSd = Math.sqrt(
  aaChanges.reduce((a, b) => a + (b - aaMean) ** 2, 0) / (aaChanges.length - 1),
);
const halfWidths = aaWindows.map((o) => (o.upper - o.lower) / 2).sort((a, b) => a - b);
const medianHalf = halfWidths[Math.floor(halfWidths.length / 2)]!;
const pairedRows: string[] = [];
const pairedFalse: string[] = [];
const paired: Record<string, unknown>[] = [];
for (const threshold of PAIRED_THRESHOLDS) {
  const rng = createRng(77);
  let landingCalled = 0;
  let foundWithin5 = 0;
  for (let s = 0; s < SEEDS; s++) {
    const night = stepWindows[Math.floor(rng.nextFloat() * stepWindows.length)]!;
    const byDuet = called(night, threshold);
    if (byDuet) landingCalled++;
    if (byDuet || delays2[s]! <= 5) foundWithin5++;
  }
  // false steps: every night of 365 draws an A/A window
  let falseHistories = 0;
  for (let s = 0; s < SEEDS * 2; s++) {
    let any = false;
    for (let n = 0; n < 365 && !any; n++)
      any = called(aaWindows[Math.floor(rng.nextFloat() * aaWindows.length)]!, threshold);
    if (any) falseHistories++;
  }
  const stepCalled = stepWindows.filter((o) => called(o, threshold)).length;
  const aaCalled = aaWindows.filter((o) => called(o, threshold)).length;
  const perNight = 2 * (1 - normalCdf((threshold + medianHalf - Math.abs(aaMean)) / aaSd));
  const perYear = 1 - (1 - perNight) ** 365;
  paired.push({
    threshold,
    stepWindowsCalled: stepCalled,
    aaWindowsCalled: aaCalled,
    landingCalled,
    foundWithin5,
    falseHistories,
    falseHistoriesOf: SEEDS * 2,
    model: { perNight, perYear },
  });
  pairedRows.push(
    `| ±${pct(threshold, 1)} | ${stepCalled}/${stepWindows.length} | ${wilson95(landingCalled, SEEDS)} | ${wilson95(foundWithin5, SEEDS)} | ${pct(delays2.filter((d) => d <= 5).length / SEEDS, 0)} |`,
  );
  pairedFalse.push(
    `| ±${pct(threshold, 1)} | ${aaCalled}/${aaWindows.length} | ${wilson95(falseHistories, SEEDS * 2)} | ${perNight.toExponential(1)} | ${perYear.toExponential(1)} |`,
  );
}
results.paired = {
  stepTruth,
  stepWindows: stepWindows.length,
  aaWindows: aaWindows.length,
  model: { aaMean, aaSd, medianHalfWidth: medianHalf },
  thresholds: paired,
};

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
console.log(
  `\nA nightly paired duet against the previous nightly's commit (base-from-history), judged from real duet windows (c-command 10 ms, 5 s each): ${stepWindows.length} with 2% more work (truth ${stepTruth === null ? '?' : pct(stepTruth, 2)}), ${aaWindows.length} A/A. A 2% step at CV 2%, ${SEEDS} histories:\n`,
);
console.log(
  "| threshold | +2% windows called | called by the landing night's duet | found ≤ 5 runs (duet or change point) | change points alone |\n| :-- | --: | :-- | :-- | --: |",
);
for (const r of pairedRows) console.log(r);
console.log(
  `\nPure noise, 365 nights (A/A changes sd ${pct(aaSd, 2)}, median half-width ${pct(medianHalf, 2)} for the normal model):\n`,
);
console.log(
  '| threshold | A/A windows called | histories with a false step | model: per night | model: 365 nights |\n| :-- | --: | :-- | --: | --: |',
);
for (const r of pairedFalse) console.log(r);
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
