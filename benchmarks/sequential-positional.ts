/**
 * Simulation of a large suite as duetkit now runs it (docs/suites.md, "A big suite"): every
 * round is one process per side running `repetitions` repetitions, paired by position, with a
 * random effect per process (its start: memory layout, frequency, caches) shared by its
 * repetitions; screening breadth first, then focus (src/suite/allocation.ts); each look's
 * interval at its spent level with the automatic block length, the trimmed-t test of the
 * same interval, p / w_k, Holm over the suite. Measures, per condition:
 *   - A/A: the family-wise rate of changed calls at the practical threshold, and of the bare
 *     test (Holm-adjusted p < α, threshold 0: what the test itself promises);
 *   - how often a reported interval misses its truth (coverage);
 *   - a +38% change and a +8% change planted in 3 benchmarks: found (called regression) in
 *     how many suites, and after how many pairs.
 *
 *   node --import tsx benchmarks/sequential-positional.ts [--suites 200] [--benchmarks 100]
 *        [--repetitions 10] [--process-sd 0.003] [--seed 1]
 */
import { writeFileSync } from 'node:fs';
import { numberFlag } from './args.js';
import { optimalBlockLength } from '../src/stats/block-length.js';
import { pairedTrimmedInterval, trimmedTTest } from '../src/stats/compare.js';
import { holm } from '../src/stats/adjust.js';
import { createRng, type Rng } from '../src/stats/rng.js';
import {
  decisionFloor,
  lookLevel,
  lookSchedule,
  sequentialPValue,
} from '../src/stats/sequential.js';
import { decideVerdict } from '../src/stats/verdict.js';
import { nextStage, type UnitState } from '../src/suite/allocation.js';
import { wilsonInterval } from '../src/stats/proportion.js';

const argv = process.argv.slice(2);
const value = (flag: string, fallback: string): number => numberFlag(argv, flag, fallback);
const SUITES = value('--suites', '200');
const BENCHMARKS = value('--benchmarks', '100');
const K = value('--repetitions', '10');
const PROCESS_SD = value('--process-sd', '0.003');
const LEVEL = 0.99;
const ALPHA = 1 - LEVEL;
const THRESHOLD = 0.05;
const draft = lookSchedule(20, 3, 4);
const first = Math.ceil(Math.max(20, decisionFloor(BENCHMARKS, draft.weights[0]!, ALPHA)) / K) * K;
const schedule = lookSchedule(first, 3, 4);

/** One round of one benchmark: K pair log-ratios sharing each side's process effect. */
function round(rng: Rng, change: number, sd: number): number[] {
  const spike = () => (rng.nextFloat() < 0.05 ? Math.log(1.1 + 0.5 * rng.nextFloat()) : 0);
  const base = PROCESS_SD * rng.nextNormal();
  const head = PROCESS_SD * rng.nextNormal();
  return Array.from(
    { length: K },
    () =>
      Math.log1p(change) +
      head -
      base +
      sd * (rng.nextNormal() - rng.nextNormal()) +
      spike() -
      spike(),
  );
}

interface Judged {
  change: number;
  lower: number;
  upper: number;
  p: number;
  n: number;
  verdict: string;
  moreSamplesNeeded: number | null;
}

function judge(d: readonly number[], look: number, family: number): Judged {
  const n = schedule.pairs[look]!;
  const inOrder = d.slice(0, n);
  const level = lookLevel(LEVEL, schedule, look);
  const blockLength = optimalBlockLength(inOrder);
  const t = pairedTrimmedInterval(Float64Array.from(inOrder).sort(), level, blockLength);
  const p = sequentialPValue(trimmedTTest(t).pValue, schedule, look);
  const change = Math.expm1(t.estimate);
  const lower = Math.expm1(t.lower);
  const upper = Math.expm1(t.upper);
  const v = decideVerdict({
    change,
    lower,
    upper,
    threshold: THRESHOLD,
    pValueAdjusted: Math.min(1, p * family),
    alpha: ALPHA,
    biggerIsBetter: false,
    n,
  });
  return { change, lower, upper, p, n, ...v };
}

interface Outcome {
  calledAtThreshold: boolean;
  calledAtZero: boolean;
  missed: number;
  found: Record<string, number>;
  pairsToFind: Record<string, number[]>;
}

function runSuite(rng: Rng, changes: number[], sds: number[], budgetRounds: number): Outcome {
  const data: number[][] = changes.map(() => []);
  const units: UnitState[] = changes.map((_, i) => ({
    name: String(i),
    pairs: 0,
    look: -1,
    secondsPerPair: 1,
    decision: null,
    pairsToSettle: null,
    change: null,
  }));
  const foundAt = new Map<number, number>();
  let left = budgetRounds * K;
  for (;;) {
    const stage = nextStage(units, schedule, left, 1, false, K, THRESHOLD);
    if (stage.length === 0) break;
    for (const entry of stage) {
      const i = Number(entry.name);
      const u = units[i]!;
      const rounds = Math.ceil(entry.pairs / K);
      if (left < rounds * K) continue;
      left -= rounds * K;
      for (let r = 0; r < rounds; r++) data[i]!.push(...round(rng, changes[i]!, sds[i]!));
      u.pairs += rounds * K;
      let look = -1;
      schedule.pairs.forEach((p, k) => {
        if (u.pairs >= p) look = k;
      });
      if (look <= u.look) continue;
      u.look = look;
      const j = judge(data[i]!, look, changes.length);
      const unsure =
        (j.verdict === 'regression' || j.verdict === 'improvement') &&
        j.p * changes.length >= ALPHA;
      u.decision = j.verdict === 'inconclusive' || unsure ? 'open' : 'settled';
      u.pairsToSettle = j.verdict === 'inconclusive' ? j.moreSamplesNeeded : j.n;
      u.change = Math.abs(j.change);
      if (j.verdict === 'regression' && changes[i]! > 0 && !foundAt.has(i)) foundAt.set(i, u.pairs);
    }
    if (left <= 0) break;
  }
  const finals = units.map((u, i) => (u.look < 0 ? null : judge(data[i]!, u.look, 1)));
  const adjusted = holm(finals.map((f) => f?.p ?? 1));
  const out: Outcome = {
    calledAtThreshold: false,
    calledAtZero: false,
    missed: 0,
    found: {},
    pairsToFind: {},
  };
  finals.forEach((f, i) => {
    if (f === null) return;
    const truth = changes[i]!;
    const v = decideVerdict({
      change: f.change,
      lower: f.lower,
      upper: f.upper,
      threshold: THRESHOLD,
      pValueAdjusted: adjusted[i]!,
      alpha: ALPHA,
      biggerIsBetter: false,
      n: f.n,
    }).verdict;
    if (truth === 0 && (v === 'regression' || v === 'improvement')) out.calledAtThreshold = true;
    if (truth === 0 && adjusted[i]! < ALPHA) out.calledAtZero = true;
    if (!(f.lower <= truth && truth <= f.upper)) out.missed++;
    if (truth > 0) {
      const key = `+${Math.round(truth * 100)}%`;
      out.found[key] = (out.found[key] ?? 0) + (v === 'regression' ? 1 : 0);
      if (foundAt.has(i)) (out.pairsToFind[key] ??= []).push(foundAt.get(i)!);
    }
  });
  return out;
}

const rng = createRng(value('--seed', '1'));
const rows: Record<string, unknown>[] = [];
// noise per benchmark from 0.3% to 5% per repetition (the range of real Go suites)
const sds = Array.from({ length: BENCHMARKS }, (_, i) => 0.003 * 16 ** (i / (BENCHMARKS - 1)));
// a budget of 2.5 screenings: what a 2-minute run of a 100-benchmark Go suite affords
const budgetRounds = Math.round(2.5 * BENCHMARKS * (first / K));
for (const [name, changes] of [
  ['A/A suite', sds.map(() => 0)],
  [
    'three benchmarks +38%, three +8%',
    sds.map((_, i) => ([10, 50, 90].includes(i) ? 0.38 : [20, 60, 95].includes(i) ? 0.08 : 0)),
  ],
] as const) {
  let atThreshold = 0;
  let atZero = 0;
  let missed = 0;
  let intervals = 0;
  const found: Record<string, number> = {};
  const pairs: Record<string, number[]> = {};
  for (let s = 0; s < SUITES; s++) {
    const o = runSuite(rng, [...changes], sds, budgetRounds);
    if (o.calledAtThreshold) atThreshold++;
    if (o.calledAtZero) atZero++;
    missed += o.missed;
    intervals += changes.length;
    for (const [k, v] of Object.entries(o.found)) found[k] = (found[k] ?? 0) + v;
    for (const [k, v] of Object.entries(o.pairsToFind)) (pairs[k] ??= []).push(...v);
  }
  const planted = changes.filter((c) => c > 0).length / 2;
  const row = {
    suite: name,
    suites: SUITES,
    benchmarks: BENCHMARKS,
    repetitions: K,
    processSd: PROCESS_SD,
    schedule: schedule.pairs,
    familyWiseCallsAtThreshold: wilsonInterval(atThreshold, SUITES, 0.95),
    familyWiseTestRejections: wilsonInterval(atZero, SUITES, 0.95),
    intervalMisses: wilsonInterval(missed, intervals, 0.95),
    found: Object.fromEntries(
      Object.entries(found).map(([k, v]) => [k, wilsonInterval(v, SUITES * planted, 0.95)]),
    ),
    medianPairsToFind: Object.fromEntries(
      Object.entries(pairs).map(([k, v]) => [k, v.sort((a, b) => a - b)[v.length >> 1]]),
    ),
  };
  rows.push(row);
  console.log(JSON.stringify(row));
}
writeFileSync(
  'benchmarks/results/sequential-positional.json',
  `${JSON.stringify({ date: new Date().toISOString(), level: LEVEL, threshold: THRESHOLD, rows }, null, 1)}\n`,
);
