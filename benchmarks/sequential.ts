/**
 * Simulation of the suite design (docs/suites.md): suites of benchmarks analysed only at the
 * scheduled looks, time given by the allocation policy (src/suite/allocation.ts) to the
 * benchmarks whose interval straddles the threshold, verdicts with Holm over the suite.
 * Compares the design as built (each look's interval at its spent level, p / w_k) with the
 * naive one (every look at the nominal level), on:
 *   - A/A suites: family-wise rate of "changed" calls (regression or improvement);
 *   - suites with true changes just beyond and just inside the threshold: how often the
 *     reported interval misses the truth, and how often a change beyond the threshold is
 *     called unchanged.
 * Pair log-ratios: normal noise plus one-sided spikes on each side (the spike model of
 * tests/stats/coverage.test.ts).
 *
 *   node --import tsx benchmarks/sequential.ts [--suites 400] [--benchmarks 20] [--seed 1]
 */
import { writeFileSync } from 'node:fs';
import { numberFlag } from './args.js';
import { pairedTrimmedInterval } from '../src/stats/compare.js';
import { wilcoxonSignedRank } from '../src/stats/wilcoxon.js';
import { holm } from '../src/stats/adjust.js';
import { createRng, type Rng } from '../src/stats/rng.js';
import { lookLevel, lookSchedule, sequentialPValue } from '../src/stats/sequential.js';
import { decideVerdict } from '../src/stats/verdict.js';
import { nextStage, type UnitState } from '../src/suite/allocation.js';
import { wilsonInterval } from '../src/stats/proportion.js';

const argv = process.argv.slice(2);
const value = (flag: string, fallback: string): number => numberFlag(argv, flag, fallback);
const SUITES = value('--suites', '400');
const BENCHMARKS = value('--benchmarks', '20');
const LEVEL = 0.99;
const THRESHOLD = 0.05;
const schedule = lookSchedule(20, 3, 4);

function pair(rng: Rng, change: number, sd: number): [number, number] {
  const spike = () => (rng.nextFloat() < 0.1 ? 1.1 + 0.5 * rng.nextFloat() : 1);
  const common = Math.exp(0.1 * rng.nextNormal());
  return [
    100 * common * Math.exp(sd * rng.nextNormal()) * spike(),
    100 * (1 + change) * common * Math.exp(sd * rng.nextNormal()) * spike(),
  ];
}

interface Outcome {
  familyCalled: boolean;
  missed: number;
  falseUnchanged: number;
  beyond: number;
  pairs: number;
}

/** One suite run through the allocation; `honest` false judges every look at the nominal level. */
function runSuite(
  rng: Rng,
  changes: number[],
  sds: number[],
  honest: boolean,
  budgetPairs: number,
): Outcome {
  const data = changes.map((c, i) =>
    Array.from({ length: schedule.pairs.at(-1)! }, () => pair(rng, c, sds[i]!)),
  );
  const units: UnitState[] = changes.map((_, i) => ({
    name: String(i),
    pairs: 0,
    look: -1,
    secondsPerPair: 1,
    decision: null,
    pairsToSettle: null,
  }));
  // what compare() does for the default paired statistic, without its descriptive extras
  const judge = (i: number, look: number) => {
    const n = schedule.pairs[look]!;
    const d = Float64Array.from(data[i]!.slice(0, n), ([b, h]) => Math.log(h / b)).sort();
    const level = honest ? lookLevel(LEVEL, schedule, look) : LEVEL;
    const t = pairedTrimmedInterval(d, level, 1);
    const raw = wilcoxonSignedRank(Array.from(d)).pValue;
    const p = honest ? sequentialPValue(raw, schedule, look) : raw;
    const c = {
      change: Math.expm1(t.estimate),
      ci: { lower: Math.expm1(t.lower), upper: Math.expm1(t.upper) },
      n,
    };
    const decision = decideVerdict({
      change: c.change,
      lower: c.ci.lower,
      upper: c.ci.upper,
      threshold: THRESHOLD,
      pValueAdjusted: p,
      alpha: 1 - LEVEL,
      biggerIsBetter: false,
      n,
    });
    return { c: { ...c, ...decision }, p };
  };
  let left = budgetPairs;
  for (;;) {
    const stage = nextStage(units, schedule, left, 1);
    if (stage.length === 0) break;
    for (const entry of stage) {
      const u = units[Number(entry.name)]!;
      left -= entry.pairs;
      u.pairs += entry.pairs;
      u.look = entry.look;
      const { c } = judge(Number(entry.name), entry.look);
      u.decision = c.verdict === 'inconclusive' ? 'open' : 'settled';
      u.pairsToSettle = c.moreSamplesNeeded;
    }
  }
  const finals = units.map((u, i) => judge(i, Math.max(0, u.look)));
  const adjusted = holm(finals.map((f) => f.p));
  let familyCalled = false;
  let missed = 0;
  let falseUnchanged = 0;
  let beyond = 0;
  finals.forEach(({ c }, i) => {
    const v = decideVerdict({
      change: c.change,
      lower: c.ci.lower,
      upper: c.ci.upper,
      threshold: THRESHOLD,
      pValueAdjusted: adjusted[i]!,
      alpha: 1 - LEVEL,
      biggerIsBetter: false,
      n: c.n,
    }).verdict;
    const truth = changes[i]!;
    if (truth === 0 && (v === 'regression' || v === 'improvement')) familyCalled = true;
    if (!(c.ci.lower <= truth && truth <= c.ci.upper)) missed++;
    if (Math.abs(truth) > THRESHOLD) {
      beyond++;
      if (v === 'unchanged') falseUnchanged++;
    }
  });
  return {
    familyCalled,
    missed,
    falseUnchanged,
    beyond,
    pairs: units.reduce((a, u) => a + u.pairs, 0),
  };
}

const rng = createRng(value('--seed', '1'));
const rows: Record<string, unknown>[] = [];
for (const [name, changes] of [
  ['A/A suite', Array.from({ length: BENCHMARKS }, () => 0)],
  [
    'changes near the threshold (±4.5%, ±5.5%, the rest 0)',
    Array.from({ length: BENCHMARKS }, (_, i) => [0.055, -0.055, 0.045, -0.045][i] ?? 0),
  ],
] as const) {
  for (const honest of [true, false]) {
    let called = 0;
    let missed = 0;
    let intervals = 0;
    let falseUnchanged = 0;
    let beyond = 0;
    let pairs = 0;
    for (let s = 0; s < SUITES; s++) {
      // noise per benchmark from 0.5% to 8% (the range of the real suites' pair ratios)
      const sds = changes.map((_, i) => 0.005 * 16 ** (i / Math.max(1, changes.length - 1)));
      const o = runSuite(rng, [...changes], sds, honest, BENCHMARKS * 120);
      if (o.familyCalled) called++;
      missed += o.missed;
      intervals += changes.length;
      falseUnchanged += o.falseUnchanged;
      beyond += o.beyond;
      pairs += o.pairs;
    }
    const row = {
      suite: name,
      design: honest ? 'spent over the looks (as built)' : 'naive (nominal level at every look)',
      suites: SUITES,
      familyWiseCalls: wilsonInterval(called, SUITES, 0.95),
      intervalMisses: wilsonInterval(missed, intervals, 0.95),
      beyondCalledUnchanged: beyond === 0 ? null : wilsonInterval(falseUnchanged, beyond, 0.95),
      meanPairsPerSuite: pairs / SUITES,
    };
    rows.push(row);
    console.log(JSON.stringify(row));
  }
}
writeFileSync(
  'benchmarks/results/sequential.json',
  `${JSON.stringify({ date: new Date().toISOString(), schedule, level: LEVEL, threshold: THRESHOLD, benchmarks: BENCHMARKS, rows }, null, 1)}\n`,
);
