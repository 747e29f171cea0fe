/**
 * When are a benchmark's pairs resampled in blocks? `blockLength: auto` (src/stats/block-length.ts)
 * asks the Ljung–Box test first and sizes blocks by Politis–White only when it finds
 * autocorrelation. This measures why, and what it costs:
 *
 *   - independent series (normal; Student t with 3 degrees of freedom, the heavy tails of real
 *     pair ratios) of the sizes a suite's looks have: the share that Politis–White alone, and
 *     the gated rule, would resample in blocks, and the median block length they chose then;
 *   - AR(1) series: the share still found autocorrelated (the power the gate keeps);
 *   - real pairs: every committed run of `bench:suites` (benchmarks/results/suites-pairs.json,
 *     each benchmark's log pair ratios in round order) with at least 20 pairs: the lag-1
 *     autocorrelation as a z-score (independent pairs: mean 0, sd 1) and the share each rule
 *     blocks — on the pairs, and on the 20%-winsorized pairs, which is what the trimmed mean
 *     (the paired default) is judged on.
 *
 *   node --import tsx benchmarks/block-length.ts [--runs 4000] [--seed 1]
 *        [--out benchmarks/results/block-length.json]
 *
 * Pure computation, seconds; the figures are in BENCHMARKS.md ("Large suites").
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { numberFlag, stringFlag } from './args.js';
import { autoBlockLength, autocovariances, optimalBlockLength } from '../src/stats/block-length.js';
import { mean, median, standardDeviation } from '../src/stats/descriptive.js';
import { createRng } from '../src/stats/rng.js';
import { winsorized } from '../src/stats/trimmed-mean.js';

const argv = process.argv.slice(2);
const RUNS = numberFlag(argv, '--runs', '4000');
const SEED = numberFlag(argv, '--seed', '1');
const OUT = stringFlag(argv, '--out', 'benchmarks/results/block-length.json');
const PAIRS = 'benchmarks/results/suites-pairs.json';

const rng = createRng(SEED);
/** Student t with 3 degrees of freedom: a normal over √(χ²₃ / 3). */
const t3 = (): number => {
  let chi = 0;
  for (let i = 0; i < 3; i++) chi += rng.nextNormal() ** 2;
  return rng.nextNormal() / Math.sqrt(chi / 3);
};
const series = (n: number, phi: number, draw: () => number): number[] => {
  const xs: number[] = [];
  let x = 0;
  for (let i = 0; i < n; i++) {
    x = phi * x + draw();
    xs.push(x);
  }
  return xs;
};

interface Row {
  kind: string;
  n: number;
  runs: number;
  /** Share resampled in blocks, and the median block length then. */
  politisWhite: { blocked: number; medianBlock: number | null };
  gated: { blocked: number; medianBlock: number | null };
}

const share = (lengths: number[]) => {
  const blocked = lengths.filter((b) => b > 1);
  return {
    blocked: +(blocked.length / lengths.length).toFixed(4),
    medianBlock: blocked.length === 0 ? null : median(blocked),
  };
};

function simulate(kind: string, n: number, phi: number, draw: () => number, runs: number): Row {
  const pw: number[] = [];
  const gated: number[] = [];
  for (let r = 0; r < runs; r++) {
    const xs = series(n, phi, draw);
    pw.push(optimalBlockLength(xs));
    gated.push(autoBlockLength(xs));
  }
  return { kind, n, runs, politisWhite: share(pw), gated: share(gated) };
}

const rows: Row[] = [];
for (const n of [8, 9, 12, 15, 20, 27, 36, 50, 100]) {
  rows.push(simulate('normal', n, 0, () => rng.nextNormal(), RUNS));
  rows.push(simulate('t3', n, 0, t3, RUNS));
}
for (const phi of [0.3, 0.5, 0.8]) {
  for (const n of [27, 60, 200]) {
    rows.push(simulate(`ar1-${phi}`, n, phi, () => rng.nextNormal(), Math.min(RUNS, 1000)));
  }
}

// the real pairs of every committed suite run
const real = (() => {
  if (!existsSync(PAIRS)) return null;
  const runs = JSON.parse(readFileSync(PAIRS, 'utf8')) as {
    suite: string;
    logRatios: Record<string, number[]>;
  }[];
  const z: number[] = [];
  const pw: number[] = [];
  const gated: number[] = [];
  const gatedWinsorized: number[] = [];
  for (const run of runs) {
    for (const xs of Object.values(run.logRatios)) {
      const n = xs.length;
      if (n < 20) continue;
      const autocov = autocovariances(xs, 1);
      const c0 = autocov[0]!;
      const c1 = autocov[1]!;
      if (!(c0 > 0)) continue;
      // E[r1] = −1/n for independent values, sd ≈ 1/√n
      z.push((c1 / c0 + 1 / n) * Math.sqrt(n));
      pw.push(optimalBlockLength(xs));
      gated.push(autoBlockLength(xs));
      gatedWinsorized.push(autoBlockLength(winsorized(xs, 0.2)));
    }
  }
  return {
    units: z.length,
    runs: runs.length,
    lag1: {
      meanZ: +mean(z).toFixed(3),
      sdZ: +standardDeviation(z).toFixed(3),
      above2_33: +(z.filter((x) => x > 2.33).length / z.length).toFixed(4),
      below2_33: +(z.filter((x) => x < -2.33).length / z.length).toFixed(4),
    },
    politisWhite: share(pw),
    gated: share(gated),
    /** What a trimmed mean's pairs get: the test and the length on the 20%-winsorized series. */
    gatedWinsorized: share(gatedWinsorized),
  };
})();

const entry = { date: new Date().toISOString(), seed: SEED, simulated: rows, real };
const stored = existsSync(OUT) ? (JSON.parse(readFileSync(OUT, 'utf8')) as unknown[]) : [];
stored.push(entry);
writeFileSync(OUT, `${JSON.stringify(stored, null, 1)}\n`);
for (const r of rows) {
  console.log(
    `${r.kind.padEnd(8)} n=${String(r.n).padStart(3)}  Politis–White blocks ${(r.politisWhite.blocked * 100).toFixed(1)}% (median ${r.politisWhite.medianBlock ?? '–'})  gated ${(r.gated.blocked * 100).toFixed(1)}% (median ${r.gated.medianBlock ?? '–'})`,
  );
}
if (real !== null) console.log(JSON.stringify(real));
