import { rm } from 'node:fs/promises';
import { RunError } from '../process/errors.js';
import { runExperiment, type ExperimentOptions } from '../runner/experiment.js';
import { createTimerPool } from '../runner/drivers/timer-pool.js';
import type { PerBenchmarkResult } from '../runner/per-benchmark.js';
import type { StopReason } from '../contracts/stop-reason.js';
import type { Trial } from '../contracts/samples.js';
import { median } from '../stats/descriptive.js';
import { lookReached, MIN_PAIRS_TO_CALL, type LookSchedule } from '../stats/sequential.js';
import { groupChunk, nextStage, type StageEntry, type UnitState } from './allocation.js';
import {
  planSuite,
  replanFromPace,
  REPLAN_AFTER_UNITS,
  screeningWarning,
  type Replan,
} from './plan.js';
import type { PreparedSuite, SuiteUnit } from './preparer.js';
import { preparerFor } from './preparers.js';
import type { SuiteRecord } from '../contracts/suite-record.js';
import type { SuiteSpec } from './schema.js';

/** What a look of one unit concluded, from the trials so far (injected: analyze/). */
export type AssessUnit = (
  trials: readonly Trial[],
  unit: string,
  pairs: number,
  look: number,
  familySize: number,
  schedule: LookSchedule,
  /** Fewest pairs at which a look calls a change (MIN_PAIRS_TO_CALL). */
  callFloor: number,
) => {
  decision: 'settled' | 'open';
  pairsToSettle: number | null;
  change?: number | null;
  /** Whether the change's interval leaves out zero (allocation.ts `UnitState.clear`). */
  clear?: boolean;
  /** The change over its interval's half-width (allocation.ts `UnitState.evidence`). */
  evidence?: number | null;
} | null;

export type SuiteResult = PerBenchmarkResult & { suite: SuiteRecord };

/** What a unit's last look estimated, as the allocation reads it (allocation.ts `UnitState`). */
type LookEstimate = Required<Pick<UnitState, 'pairsToSettle' | 'change' | 'clear' | 'evidence'>>;
/** A unit before its first look, or one whose look could not be judged. */
const NO_LOOK: LookEstimate = { pairsToSettle: null, change: null, clear: true, evidence: null };

/**
 * Before any pace is known (nothing calibrated, no unit measured): a unit's pairs cost
 * without bound, so the first unit gets the least a screening share gives (2 pairs) and its
 * pace sizes the others'. An assumed 0.1 s gave the first criterion benchmark of a 131-long
 * suite 9 pairs at 0.9 s each while 97 others went unmeasured.
 */
const UNKNOWN_SECONDS_PER_PAIR = Infinity;

/**
 * A suite under one budget (`suite:` in the scenario). The format's preparer (preparers.ts)
 * builds each version's benchmark program once where it can and calibrates; the plan
 * (plan.ts) fixes, before measuring, the repetitions per process, the looks — the first no
 * smaller than what a call in this family needs — and whether the budget affords every
 * benchmark's first look, and says at once when it does not. Then stages (allocation.ts):
 * the screening, breadth first, until every benchmark has reached its first look; after
 * that only those whose interval straddles the threshold get time, the largest apparent
 * change first, up to their next look, while the budget lasts. Each stage of a benchmark is
 * a whole experiment of the scenario's mode with exactly the rounds it needs. Rounds are
 * numbered on across stages, as in per-benchmark runs.
 */
export async function runSuite(
  options: ExperimentOptions & {
    baseline: string;
    assess: AssessUnit;
    workDir: string;
    /** Told at once what the plan found (a budget too small for the suite). */
    onNotice?: (message: string) => void;
  },
): Promise<SuiteResult> {
  const { scenario, versions, signal } = options;
  const spec = scenario.suite!;
  const budgetSeconds = scenario.budget!;
  const t0 = process.hrtime.bigint();
  const elapsed = (): number => Number(process.hrtime.bigint() - t0) / 1e9;
  const envOf = (i: number): NodeJS.ProcessEnv => ({
    ...options.env,
    ...scenario.workload.env,
    ...scenario.versions[i]?.env,
  });
  const prepared: PreparedSuite = await preparerFor(scenario).prepare({ ...options, envOf });
  const plan = planSuite({
    spec,
    units: prepared.units,
    repeats: prepared.repeats,
    ...(prepared.minRepetitions === undefined ? {} : { minRepetitions: prepared.minRepetitions }),
    startupSeconds: prepared.startupSeconds,
    // RMIT runs a round's sides one after the other; a duet, at once
    sidesInSeries: scenario.mode === 'rmit' ? scenario.versions.length : 1,
    // the budget is the whole suite's, building and calibrating included: what is left
    budgetSeconds: Math.max(0, budgetSeconds - elapsed()),
    level: scenario.analysis.level,
  });
  if (plan.warning !== null) options.onNotice?.(plan.warning);
  // the looks, checked once against the pace of the first units measured (replanFromPace)
  let schedule = plan.schedule;
  const perRound = plan.repetitions;
  const record: SuiteRecord = {
    allocation: spec.allocation,
    schedule,
    build: prepared.build,
    calibrationSeconds: prepared.calibrationSeconds,
    plan: {
      repetitions: perRound,
      within: spec.within,
      firstLook: schedule.pairs[0]!,
      decisionFloor: plan.decisionFloor,
      callFloor: MIN_PAIRS_TO_CALL,
      startupSeconds: prepared.startupSeconds,
      screeningSeconds: plan.screeningSeconds,
      warning: plan.warning,
    },
    units: prepared.units.map((u) => ({
      name: u.name,
      argv: Object.fromEntries(versions.map((v, i) => [v.name, u.argv(i, perRound)])),
      iterations: u.iterations,
      ...((u.parts ?? 1) > 1 ? { parts: u.parts } : {}),
      calibratedNsPerOp: u.nsPerOp,
      pairs: 0,
      look: -1,
      decision: null,
      secondsPerPair: null,
      stopReason: 'iterations',
    })),
    stages: [],
  };
  const result: SuiteResult = {
    trials: [],
    order: [],
    stopReason: 'iterations',
    error: null,
    startedAt: new Date(),
    staggerMs: null,
    perBenchmark: {
      listedBy: options.baseline,
      lists: prepared.lists,
      runs: [],
      missing: prepared.missing,
    },
    suite: record,
  };
  // a suite's budget counts from its start: the build and the calibration are spent from it,
  // as the user's CI time is (docs/suites.md)
  const left = (): number => budgetSeconds - elapsed();
  let roundOffset = 0;
  // what each open unit's last look estimated: orders the next stage
  const last = new Map<string, LookEstimate>();
  /** Books a stage's pairs to a unit and, when they reach a new look, judges that look. */
  const advance = (entry: StageEntry, measured: number, spentMs: number, stop: StopReason) => {
    const rec = record.units.find((u) => u.name === entry.name)!;
    const pairs = measured * perRound;
    rec.pairs += pairs;
    if (pairs > 0) {
      const before = rec.secondsPerPair === null ? 0 : rec.secondsPerPair * (rec.pairs - pairs);
      rec.secondsPerPair = (before + spentMs / 1000) / rec.pairs;
    }
    rec.stopReason = stop;
    judge(rec);
  };
  /** Judges the look a unit's pairs reached, if it is a new one. */
  const judge = (rec: SuiteRecord['units'][number]): void => {
    const look = lookReached(schedule, rec.pairs);
    if (look <= rec.look) return;
    rec.look = look;
    const verdict = options.assess(
      result.trials,
      rec.name,
      schedule.pairs[look]!,
      look,
      record.units.length,
      schedule,
      MIN_PAIRS_TO_CALL,
    );
    rec.decision = verdict?.decision ?? 'open';
    last.set(rec.name, {
      pairsToSettle: verdict?.pairsToSettle ?? NO_LOOK.pairsToSettle,
      change: verdict?.change ?? NO_LOOK.change,
      clear: verdict?.clear ?? NO_LOOK.clear,
      evidence: verdict?.evidence ?? NO_LOOK.evidence,
    });
  };
  // nothing calibrated: the first experiment's own pace says whether the screening fits
  let paced = plan.screeningSeconds !== null;
  const checkPace = (): void => {
    if (paced) return;
    paced = true;
    record.plan!.warning = measuredScreeningWarning(record, Math.round(left()));
    if (record.plan!.warning !== null) options.onNotice?.(record.plan!.warning);
  };
  /** Adopts looks set again from the pace (replanFromPace), before any unit reached a look. */
  const adopt = (next: Replan, afterUnits: number, what: string): void => {
    const from = schedule;
    record.plan!.replanned = {
      afterUnits,
      secondsPerPair: next.secondsPerPair,
      predictedSecondsPerPair: next.predictedSecondsPerPair,
      from,
    };
    schedule = next.schedule;
    record.schedule = schedule;
    record.plan!.firstLook = schedule.pairs[0]!;
    // the units measured so far may already have the new first look's pairs
    for (const rec of record.units) judge(rec);
    options.onNotice?.(
      `${what} took ${next.secondsPerPair.toFixed(3)} s a pair` +
        `${next.predictedSecondsPerPair === null ? '' : ` (${next.predictedSecondsPerPair.toFixed(3)} s predicted)`}: ` +
        `the looks are now at ${schedule.pairs.join(', ')} pairs (were ${from.pairs.join(', ')})`,
    );
  };
  // the looks again from the pace, while no unit has reached a look: once REPLAN_AFTER_UNITS
  // units are measured, and again once every unit is (the first sweep of the screening: the
  // first units of a list are often the cheap ones, and a benchmark's set-up — its fixtures,
  // its files — is in no prediction; fastjson's first ten ran at 0.06 s a pair in RMIT, the
  // suite at 0.08, and 77 of 100 ended short of the screening look). Grouped units below:
  // they share one process, their paces overlap.
  const checkpoints = prepared.group !== null ? [] : [REPLAN_AFTER_UNITS, record.units.length];
  const checkSchedule = (): void => {
    const measured = record.units.filter((u) => u.secondsPerPair !== null);
    const due = checkpoints.filter((c) => measured.length >= Math.min(c, record.units.length));
    if (due.length === 0) return;
    checkpoints.splice(0, due.length);
    if (record.units.some((u) => u.look >= 0)) return;
    const paces = measured.map((u) => ({
      name: u.name,
      pairs: u.pairs,
      seconds: u.secondsPerPair! * u.pairs,
    }));
    const next = replanFromPace({ ...plan, schedule }, spec, record.units.length, paces, left());
    const what =
      measured.length === record.units.length
        ? `all ${measured.length} benchmarks`
        : `the first ${measured.length} benchmarks`;
    if (next !== null) adopt(next, measured.length, what);
  };
  // grouped units share one process: once a stage has run every unit, the looks again from
  // its pace — a round of that process is a pair of every unit (replanFromPace over one unit)
  let groupReplanned = prepared.group === null;
  const replanGroup = (measured: number, spentMs: number): void => {
    if (groupReplanned || measured <= 0) return;
    groupReplanned = true;
    if (record.units.some((u) => u.look >= 0)) return;
    const pace = { name: '', pairs: measured * perRound, seconds: spentMs / 1000 };
    const next = replanFromPace(plan, spec, 1, [pace], left());
    const n = record.units.length;
    if (next !== null) adopt(next, n, `one process for all ${n} benchmarks`);
  };
  /** One unit's (or, grouped, one stage's) experiment of `rounds` rounds. */
  const measure = async (
    argvFor: (i: number) => string[],
    cwd: string[] | null,
    rounds: number,
    warmup: boolean,
  ) => {
    const startMs = elapsed() * 1000;
    const part = await runExperiment({
      ...options,
      ...(cwd === null
        ? {}
        : { versions: versions.map((v, i) => ({ name: v.name, dir: cwd[i]! })) }),
      scenario: {
        ...scenario,
        iterations: rounds,
        warmup: warmup ? scenario.warmup : 0,
        stopping: undefined,
        budget: Math.max(0.001, left()),
        workload: { ...scenario.workload, command: argvFor(0) },
      },
      commandFor: argvFor,
      halfWidth: undefined,
      timers,
      ...(prepared.programs === undefined ? {} : { programsFor: prepared.programs }),
    });
    return { part, startMs, spentMs: elapsed() * 1000 - startMs };
  };
  const states = (): UnitState[] =>
    record.units.map((u) => ({
      name: u.name,
      pairs: u.pairs,
      look: u.look,
      secondsPerPair: u.secondsPerPair,
      decision: spec.allocation === 'equal' && u.look >= 0 ? 'open' : u.decision,
      ...(last.get(u.name) ?? NO_LOOK),
    }));
  /** Seconds per pair of a unit not yet measured: the median of those measured, else the plan's. */
  const pace = (): number => {
    const seen = record.units.flatMap((u) => (u.secondsPerPair === null ? [] : [u.secondsPerPair]));
    const planned = Object.values(plan.roundSeconds).flatMap((r) =>
      r === null ? [] : [r / perRound],
    );
    const known = seen.length > 0 ? seen : planned;
    if (known.length === 0) return UNKNOWN_SECONDS_PER_PAIR;
    return median(known);
  };
  // one timer per side and CPU set for every experiment of the suite (timer-pool.ts)
  const timers = createTimerPool();
  // the programs (cwd and executable per version) a warm-up round has run
  const warmed = new Set<string>();
  let groupWarmed = false;
  const stageFor = (): StageEntry[] =>
    nextStage(
      states(),
      schedule,
      left(),
      pace(),
      prepared.group !== null,
      perRound,
      scenario.analysis.threshold,
    );
  try {
    for (;;) {
      if (left() <= 0) break;
      const stage = stageFor();
      if (stage.length === 0) break;
      const screening = stage.every((s) => record.units.find((u) => u.name === s.name)!.look < 0);
      record.stages.push({ units: stage.map((s) => s.name), look: stage[0]!.look });
      if (prepared.group !== null) {
        // one process per iteration runs a chunk of the stage's units (one start-up for all of
        // them), chunk after chunk: processes of about GROUP_PAIR_SECONDS a pair, so that the
        // two sides of an RMIT pair run seconds apart at most, not a whole suite apart
        const group = prepared.group;
        const pairs = Math.max(...stage.map((s) => s.pairs));
        const entries = new Map(stage.map((s) => [s.name, s]));
        // the sets the format lets share a process (go: siblings of like cost), each in chunks
        const sets = prepared.partition?.(stage.map((s) => s.name)) ?? [stage.map((s) => s.name)];
        const chunks = sets.flatMap((set) => {
          const size = groupChunk(set.length, pace());
          return Array.from({ length: Math.ceil(set.length / size) }, (_, k) =>
            set.slice(k * size, (k + 1) * size).map((name) => entries.get(name)!),
          );
        });
        let stageMs = 0;
        let stageRounds = Infinity;
        for (const chunk of chunks) {
          if (signal.aborted) throw new RunError('interrupted');
          if (left() <= 0) break;
          const names = chunk.map((s) => s.name);
          // one warm-up round for the run's first process (its files into the page cache)
          const warmup = !groupWarmed && prepared.groupWarmsUp !== true;
          groupWarmed = true;
          const { part, startMs, spentMs } = await measure(
            (i) => group(names, i),
            prepared.units[0]!.cwd,
            pairs,
            warmup,
          );
          roundOffset = absorb(result, part, startMs, roundOffset, { within: spec.within });
          const measured = part.order.filter((o) => !o.warmup).length;
          // each unit's share of the process: what it adds to a stage that runs it
          for (const entry of chunk)
            advance(entry, measured, spentMs / chunk.length, part.stopReason);
          stageMs += spentMs;
          stageRounds = Math.min(stageRounds, measured);
          checkPace();
          if (part.stopReason === 'failed' || part.stopReason === 'interrupted') {
            result.stopReason = part.stopReason;
            result.error = part.error;
            return finish(result, record);
          }
        }
        if (screening && stage.length === record.units.length && Number.isFinite(stageRounds))
          replanGroup(stageRounds, stageMs);
        continue;
      }
      for (const planned of stage) {
        if (signal.aborted) throw new RunError('interrupted');
        const unit: SuiteUnit = prepared.units.find((u) => u.name === planned.name)!;
        const rec = record.units.find((u) => u.name === planned.name)!;
        if (left() <= 0) {
          rec.stopReason = 'budget';
          continue;
        }
        // while screening, each unit's share follows the pace measured so far and the time left
        const entry = screening ? stageFor().find((s) => s.name === planned.name) : planned;
        if (entry === undefined) continue;
        // a warm-up round only for the first unit of each program (its start-up, its files into
        // the page cache): later units run the same warm binaries, and a criterion suite's
        // warm-up rounds alone took 105 s of a 120 s budget. Repetitions pair by position: no
        // warm-up round at all (the pairs start cold together).
        const program = versions.map((_, i) => `${unit.cwd[i]}\0${unit.argv(i, 1)[0]}`).join('\0');
        const warmup = rec.pairs === 0 && perRound === 1 && !warmed.has(program);
        warmed.add(program);
        const rounds = Math.ceil(entry.pairs / perRound);
        const { part, startMs, spentMs } = await measure(
          (i) => unit.argv(i, perRound),
          unit.cwd,
          rounds,
          warmup,
        );
        roundOffset = absorb(result, part, startMs, roundOffset, {
          benchmark: unit.name,
          positional: perRound > 1,
          within: spec.within,
        });
        const measured = part.order.filter((o) => !o.warmup).length;
        if (part.stopReason === 'failed' || part.stopReason === 'interrupted') {
          rec.pairs += measured * perRound;
          rec.stopReason = part.stopReason;
          result.stopReason = part.stopReason;
          result.error =
            part.stopReason === 'failed' ? `benchmark ${unit.name}: ${part.error}` : part.error;
          return finish(result, record);
        }
        advance(entry, measured, spentMs, part.stopReason);
        checkPace();
        if (screening) checkSchedule();
      }
    }
  } finally {
    await timers.close();
    await Promise.all(prepared.cleanup.map((f) => f()));
    await rm(options.workDir, { recursive: true, force: true });
  }
  // the budget ended the run when some unit was still open with looks left to reach
  const lastLook = schedule.pairs.length - 1;
  result.stopReason = record.units.some(
    (u) => u.look < 0 || (u.decision === 'open' && u.look < lastLook),
  )
    ? 'budget'
    : 'precision';
  return finish(result, record);
}

/** After the first measured benchmark: the screening's cost from the pace units have shown. */
function measuredScreeningWarning(record: SuiteRecord, budgetSeconds: number): string | null {
  const paced = record.units.filter((u) => u.secondsPerPair !== null);
  if (paced.length === 0) return null;
  const mean = paced.reduce((a, u) => a + u.secondsPerPair!, 0) / paced.length;
  const firstLook = record.schedule.pairs[0]!;
  const screening = record.units.length * mean * firstLook;
  const slowest = [...paced].sort((a, b) => b.secondsPerPair! - a.secondsPerPair!)[0]!;
  return screeningWarning(budgetSeconds, record.units.length, screening, firstLook, {
    name: slowest.name,
    seconds: slowest.secondsPerPair!,
    per: 'pair',
  });
}

/**
 * Adds an experiment's trials and order to the suite's, rounds numbered on; tags them with
 * their benchmark, marks the metrics whose values pair by position (`positional`) and, with
 * `within: fastest`, whose several values are timed parts of one process's work (`reduce`,
 * analyze/trial-value.ts).
 */
function absorb(
  result: SuiteResult,
  part: Awaited<ReturnType<typeof runExperiment>>,
  startMs: number,
  roundOffset: number,
  how: {
    benchmark?: string;
    positional?: boolean;
    within: SuiteSpec['within'];
  },
): number {
  const shift = (ms: number): number => Math.round((ms + startMs) * 1000) / 1000;
  const tag = how.benchmark === undefined ? {} : { benchmark: how.benchmark };
  const mark = (m: Trial['metrics'][number]): Trial['metrics'][number] => ({
    ...m,
    ...(how.positional === true ? { positional: true as const } : {}),
    ...(how.within === 'fastest' ? { reduce: 'fastest' as const } : {}),
  });
  for (const trial of part.trials) {
    result.trials.push({
      ...trial,
      metrics: trial.metrics.map(mark),
      round: trial.round + roundOffset,
      startMs: shift(trial.startMs),
      endMs: shift(trial.endMs),
      ...tag,
    });
  }
  for (const o of part.order) result.order.push({ ...o, round: o.round + roundOffset, ...tag });
  result.staggerMs = part.staggerMs ?? result.staggerMs;
  return roundOffset + 1 + Math.max(-1, ...part.order.map((o) => o.round));
}

function finish(result: SuiteResult, record: SuiteRecord): SuiteResult {
  result.perBenchmark.runs = record.units.map((u) => ({
    benchmark: u.name,
    argv: Object.values(u.argv)[0] ?? [],
    stopReason: u.stopReason as StopReason,
  }));
  return result;
}
