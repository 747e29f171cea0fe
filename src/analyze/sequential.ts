import type { SamplesFile } from '../contracts/samples.js';
import { belongsTo, type SuiteRecord } from '../contracts/suite-record.js';
import { lookLevel, sequentialPValue, type LookSchedule } from '../stats/sequential.js';
import type { Comparison } from '../stats/types.js';
import { withTest } from '../stats/family.js';
import { callsChange } from '../stats/verdict.js';
import type { ComparisonInput } from './blocks.js';

/** The look a suite unit is judged at: how many of its pairs, at which level. */
export interface UnitLook {
  look: number;
  looks: number;
  pairs: number;
  lookLevel: number;
  /** Fewest pairs at which a change is called (the suite's `plan.callFloor`), if any. */
  callFloor?: number;
}

/**
 * For a suite run (`samples.suite`): the look each metric's benchmark is judged at, by metric
 * name. A unit that stopped between looks is judged at the last look it reached (its later
 * pairs are not used: only scheduled looks keep the guarantee, stats/sequential.ts); one that
 * never reached the first is judged on what it has at the first look's level. Empty for
 * other runs.
 */
export function unitLooks(samples: SamplesFile, level: number): Map<string, UnitLook> {
  const suite = samples.suite;
  const looks = new Map<string, UnitLook>();
  if (suite === undefined) return looks;
  const schedule: LookSchedule = suite.schedule;
  const byUnit = new Map(suite.units.map((u) => [u.name, u]));
  const entryOf = (unit: SuiteRecord['units'][number]): UnitLook => {
    const look = Math.max(0, unit.look);
    return {
      look,
      looks: schedule.pairs.length,
      pairs: unit.look < 0 ? Infinity : schedule.pairs[look]!,
      lookLevel: lookLevel(level, schedule, look),
      ...(suite.plan?.callFloor === undefined ? {} : { callFloor: suite.plan.callFloor }),
    };
  };
  for (const trial of samples.trials) {
    for (const metric of trial.metrics) {
      if (looks.has(metric.name)) continue;
      const unit =
        trial.benchmark !== undefined
          ? byUnit.get(trial.benchmark)
          : suite.units.find((u) => belongsTo(metric.name, u.name));
      if (unit !== undefined) looks.set(metric.name, entryOf(unit));
    }
  }
  return looks;
}

/**
 * The first `pairs` pairs of a paired input (the look's), in round order; a positional round
 * counts its repetitions (`weights`), and the round that reaches `pairs` is kept whole.
 */
export function truncateToLook(input: ComparisonInput, pairs: number): ComparisonInput {
  if (!input.paired) return input;
  let keep = 0;
  for (let reached = 0; keep < input.base.length && reached < pairs; keep++) {
    reached += input.weights?.[keep] ?? 1;
  }
  if (keep >= input.base.length) return input;
  return {
    ...input,
    base: input.base.slice(0, keep),
    head: input.head.slice(0, keep),
    rounds: input.rounds?.slice(0, keep) ?? null,
    ...(input.weights === undefined ? {} : { weights: input.weights.slice(0, keep) }),
  };
}

/**
 * A comparison computed at a look's own level, restated for the sequential design: its
 * interval stands as a `level` interval (every look's together hold with `level`), its
 * p-value is divided by the look's share of the error, and the verdict is decided again.
 */
export function asSequential(
  c: Comparison,
  look: UnitLook,
  level: number,
  schedule: LookSchedule,
): Comparison {
  const p = sequentialPValue(c.test.pValue, schedule, look.look);
  const test = { ...c.test, pValue: p, pValueAdjusted: p };
  const ci = {
    ...c.ci,
    level,
    sequential: {
      look: look.look + 1,
      looks: look.looks,
      lookLevel: look.lookLevel,
      ...(look.callFloor === undefined ? {} : { callFloor: look.callFloor }),
    },
  };
  return withTest({ ...c, ci }, test);
}

/**
 * What one look of a suite unit concludes, for the allocation: `settled` when every metric of
 * the unit that counts (derived ones do not) has a verdict other than inconclusive at the
 * look's own level, else `open` with the most further pairs any of them needs. A call made
 * on fewer pairs than `callFloor` (stats/sequential.ts MIN_PAIRS_TO_CALL) is open too: the
 * look flags it, the focus takes it to the next look first, the largest change first.
 * `change` is the largest change of the unit's timings (absolute), `clear` whether that
 * change's interval at the look lies wholly on one side of zero (it looks changed), and
 * `evidence` that change over its interval's half-width (1 or more: clear of zero; about 0.5:
 * the estimate stands half an interval from zero, 1.5 standard errors for a 99% interval).
 */
export function assessLook(
  results: readonly { comparison: Comparison | null; derivedFrom?: string; error: string | null }[],
  family: { size: number; weight: number; alpha: number } = { size: 1, weight: 1, alpha: 0 },
  callFloor = 0,
): {
  decision: 'settled' | 'open';
  pairsToSettle: number | null;
  change: number | null;
  clear: boolean;
  evidence: number | null;
} | null {
  const counted = results.filter((r) => r.derivedFrom === undefined);
  if (counted.length === 0 || counted.some((r) => r.error !== null || r.comparison === null)) {
    return null;
  }
  // A change is settled only when the suite's Holm cannot undo it: its p, divided by the
  // look's share and multiplied by the family's size (Holm's largest factor), is below α.
  const unsure = (c: Comparison): boolean =>
    callsChange(c.verdict) &&
    family.alpha > 0 &&
    (c.test.pValue / family.weight) * family.size >= family.alpha;
  // exact metrics (allocs/op) are no measurement of time to confirm: not what orders focus
  const timed = counted
    .map((r) => r.comparison!)
    .filter((c) => c.test.name !== 'exact')
    .sort((a, b) => Math.abs(b.change) - Math.abs(a.change));
  const change = timed.length === 0 ? null : Math.abs(timed[0]!.change);
  // the largest change looks real when its look's interval leaves out no change at all; a
  // noisy benchmark's estimate can be far from zero with an interval across it (fastjson's
  // ObjectGet/items_100000: −8% [−35%, +25%] at 9 pairs in an A/A)
  const clear = timed.length > 0 && (timed[0]!.ci.lower > 0 || timed[0]!.ci.upper < 0);
  const halfWidth = timed.length === 0 ? 0 : (timed[0]!.ci.upper - timed[0]!.ci.lower) / 2;
  const evidence = change === null ? null : halfWidth > 0 ? change / halfWidth : null;
  // a call on too few pairs: the pairs still missing (an exact count has no sampling error)
  const early = (c: Comparison): number =>
    callsChange(c.verdict) && c.test.name !== 'exact'
      ? Math.max(0, callFloor - Math.min(c.n.base, c.n.head))
      : 0;
  const open = counted.filter(
    (r) =>
      r.comparison?.verdict === 'inconclusive' || unsure(r.comparison!) || early(r.comparison!) > 0,
  );
  if (open.length === 0) {
    return { decision: 'settled', pairsToSettle: null, change, clear, evidence };
  }
  const needs = open.map((r) =>
    r.comparison!.verdict === 'inconclusive'
      ? r.comparison!.moreSamplesNeeded
      : Math.max(early(r.comparison!), unsure(r.comparison!) ? r.comparison!.n.base : 0),
  );
  return {
    decision: 'open',
    pairsToSettle: needs.some((n) => n === null) ? null : Math.max(...(needs as number[])),
    change,
    clear,
    evidence,
  };
}
