import type { Isolation } from '../isolation/types.js';
import type { Scenario } from '../scenario/schema.js';
import type { TimerPool } from './drivers/timer-pool.js';
import type { Rng } from '../stats/rng.js';
import { getDriver } from './drivers/registry.js';
import { nsToMs } from './drivers/metrics.js';
import type { Side, SideContext } from './drivers/types.js';
import { createBarrier, type Barrier } from './barrier.js';
import { RunError } from '../process/errors.js';
import { getMode } from './modes/registry.js';
import type { Step } from './modes/types.js';
import type { SamplesFile, Trial } from '../contracts/samples.js';
import type { StopReason } from '../contracts/stop-reason.js';

export interface ExperimentVersion {
  name: string;
  dir: string;
}

export interface Progress {
  done: number;
  total: number;
  elapsedMs: number;
  /** Estimated time left, or null before the first trial. */
  etaMs: number | null;
}

export interface ExperimentOptions {
  scenario: Scenario;
  versions: ExperimentVersion[];
  isolation: Isolation;
  rng: Rng;
  signal: AbortSignal;
  env: NodeJS.ProcessEnv;
  /** The compiled command timer (src/runner/timer), or null to time with the harness's clock. */
  timer: string | null;
  onProgress?: (progress: Progress) => void;
  /**
   * Largest CI half-width over all benchmarks of the trials so far (relative change), or null
   * when it cannot be computed yet. Used only with `stopping`; injected so the runner does not
   * depend on the statistics.
   */
  halfWidth?: (trials: readonly Trial[]) => number | null;
  /** Each version's own command (a binary built per version), instead of the workload's. */
  commandFor?: (versionIndex: number) => string[];
  /** Timers kept between the experiments of one run (a suite's); absent: each side's own. */
  timers?: TimerPool;
  /** Copies of each version's program, one drawn per process (SideContext.programs). */
  programsFor?: (versionIndex: number) => readonly string[] | undefined;
}

export type ExperimentResult = Pick<SamplesFile, 'trials' | 'order' | 'stopReason' | 'error'> & {
  startedAt: Date;
  /** The start offset of a staggered duet, ms (null: the sides started together). */
  staggerMs: number | null;
};

/** `stagger: auto`: a tenth of the median iteration, at most this (ns). */
const AUTO_STAGGER_SHARE = 0.1;
const AUTO_STAGGER_MAX_NS = 2e6;
/** `stagger: auto` before enough iterations are known to size it (ns). */
const AUTO_STAGGER_FIRST_NS = 1e6;
/** Iterations whose median sizes `stagger: auto`. */
const AUTO_STAGGER_TRIALS = 6;

/** Plenty of rounds for precision-based stopping; the budget or the precision ends it first. */
const MAX_ROUNDS_WITH_STOPPING = 100_000;

/**
 * Applies a mode's plan: opens one side per version, runs each step (the sides of a duet
 * behind a barrier), records every trial with its timing, and stops on the plan's end, the
 * precision target, the budget, an interruption (`signal`) or the first failure. Never
 * throws for those: the trials gathered so far come back with the reason.
 */
export async function runExperiment(options: ExperimentOptions): Promise<ExperimentResult> {
  const { scenario, versions, isolation, signal } = options;
  const mode = getMode(scenario.mode);
  const driver = getDriver(scenario.workload.driver);
  const rounds = scenario.stopping === undefined ? scenario.iterations : MAX_ROUNDS_WITH_STOPPING;
  const trials: Trial[] = [];
  const order: SamplesFile['order'] = [];
  const startedAt = new Date();
  const t0 = process.hrtime.bigint();
  const perRound = mode.name === 'single' ? 1 : scenario.warmup + scenario.iterations;
  const total = versions.length * (mode.name === 'single' ? 1 + scenario.warmup : perRound);
  const sides: Side[] = [];
  const barrier = createBarrier();
  const killAll = (): void => sides.forEach((side) => side.kill());
  signal.addEventListener('abort', killAll);
  let stopReason: StopReason = 'iterations';
  let error: string | null = null;
  const stagger = staggerSizer(scenario.workload.stagger, trials);
  let staggered = 0;
  try {
    const slots = mode.slotCount(versions.length);
    const workloadOf = (i: number): typeof scenario.workload =>
      options.commandFor === undefined
        ? scenario.workload
        : { ...scenario.workload, command: options.commandFor(i) };
    const contexts: SideContext[] = versions.map((version, i) => ({
      version: version.name,
      cwd: version.dir,
      env: { ...options.env, ...scenario.workload.env, ...scenario.versions[i]?.env },
      placements: Array.from({ length: slots }, (_, slot) => isolation.place(slot)),
      slot: slots === 1 ? 0 : i,
      timeout: scenario.timeout,
      timer: options.timer,
      keepBusy: scenario.workload.keepBusy,
      seed: options.rng.seed,
      isolation: isolation.report,
      signal,
      ...(options.timers === undefined ? {} : { timers: options.timers }),
      ...(options.programsFor?.(i) === undefined ? {} : { programs: options.programsFor(i)! }),
    }));
    if (driver.openAll !== undefined) {
      // A driver whose sides share something (the http driver's load generator).
      await driver.openAll(scenario.workload, contexts, (side) => sides.push(side));
    } else {
      for (const context of contexts) {
        if (signal.aborted) throw new RunError('interrupted');
        sides.push(await driver.open(workloadOf(sides.length), context));
      }
    }
    // The budget is for measuring: starting the sides (a persistent program's start-up, a
    // slow machine's process creation) does not eat into it.
    const measuring = process.hrtime.bigint();
    const measuredMs = (): number => nsToMs(process.hrtime.bigint() - measuring);
    const plan = mode.plan({
      versionCount: versions.length,
      warmup: scenario.warmup,
      rounds,
      rng: options.rng,
    });
    let measuredRounds = 0;
    for (const step of plan) {
      if (signal.aborted) throw new RunError('interrupted');
      recordOrder(order, step, versions);
      const offset = step.stagger === undefined ? 0 : stagger.ns();
      if (offset > 0) staggered = offset;
      await runStep(step, sides, barrier, offset, (trial) => trials.push(trial), t0);
      options.onProgress?.(progress(trials.length, total, measuredMs(), scenario));
      if (!step.endsRound) continue;
      if (!step.warmup) measuredRounds++;
      if (reachedPrecision(scenario, measuredRounds, trials, options.halfWidth)) {
        stopReason = 'precision';
        break;
      }
      if (scenario.budget !== undefined && measuredMs() >= scenario.budget * 1000) {
        stopReason = 'budget';
        break;
      }
    }
    await Promise.all(sides.map((side) => side.close()));
  } catch (failure) {
    killAll();
    // Sides that started servers stop them here (SIGTERM first), also on failure.
    await Promise.allSettled(sides.map((side) => side.stopped?.()));
    stopReason = signal.aborted ? 'interrupted' : 'failed';
    error = signal.aborted
      ? `interrupted by ${String(signal.reason ?? 'a signal')}`
      : (failure as Error).message;
    if (!signal.aborted && !(failure instanceof RunError))
      error = (failure as Error).stack ?? error;
  } finally {
    signal.removeEventListener('abort', killAll);
    barrier.dispose();
  }
  return {
    trials,
    order,
    stopReason,
    error,
    startedAt,
    staggerMs: staggered > 0 ? microseconds(staggered / 1e6) : null,
  };
}

/** Arms every side of the step, then releases them in one go and waits for all: the barrier. */
async function runStep(
  step: Step,
  sides: Side[],
  barrier: Barrier,
  offsetNs: number,
  record: (trial: Trial) => void,
  t0: bigint,
): Promise<void> {
  const running = step.versions.map((v) => sides[v]!);
  const gate = barrier.next(running.length);
  // Every side is handled in slot order — spawned, primed and (persistent sides) started by a
  // line each — and a duet draws the slots at random each round (modes/duet.ts): whichever
  // side is spawned first, or started a few µs after the other, is not version 0 by its index.
  const bySlot = running.map((_, i) => i).sort((a, b) => step.slots[a]! - step.slots[b]!);
  await Promise.all(
    bySlot.map((i) =>
      running[i]!.arm({
        round: step.round,
        slot: step.slots[i]!,
        gate,
        delayNs: (step.stagger?.[i] ?? 0) * offsetNs,
      }),
    ),
  );
  await Promise.all(bySlot.map((i) => running[i]!.prime()));
  const releasedAt = gate.release();
  const fired: Promise<Awaited<ReturnType<Side['fire']>>>[] = [];
  // A side that fails releases the others from the end line, where they would wait for it.
  const abort = (error: unknown): never => {
    barrier.abort();
    throw error;
  };
  for (const i of bySlot) fired[i] = running[i]!.fire(step.round, releasedAt).catch(abort);
  const results = await Promise.allSettled(fired);
  const failed = results.find((r) => r.status === 'rejected');
  if (failed !== undefined) throw (failed as PromiseRejectedResult).reason;
  results.forEach((result, i) => {
    const { start, end, metrics, cpuMs, seenEnd, program, invalid, load } = (
      result as PromiseFulfilledResult<Awaited<ReturnType<Side['fire']>>>
    ).value;
    record({
      version: step.versions[i]!,
      round: step.round,
      warmup: step.warmup,
      slot: step.slots[i]!,
      startMs: microseconds(nsToMs(start - t0)),
      endMs: microseconds(nsToMs(end - t0)),
      wallMs: microseconds(nsToMs(end - start)),
      ...(cpuMs === undefined ? {} : { cpuMs: microseconds(cpuMs) }),
      ...(seenEnd === undefined ? {} : { seenEndMs: microseconds(nsToMs(seenEnd - t0)) }),
      ...(program === undefined ? {} : { program }),
      metrics,
      ...(invalid === undefined ? {} : { invalid }),
      ...(load === undefined ? {} : { load }),
    });
  });
}

function recordOrder(order: SamplesFile['order'], step: Step, versions: ExperimentVersion[]): void {
  const names = step.versions.map((v) => versions[v]!.name);
  const last = order.at(-1);
  if (last !== undefined && last.round === step.round && last.warmup === step.warmup) {
    // mct visits a round number once per version; a new entry starts when the version changes.
    if (!last.versions.some((name) => names.includes(name))) {
      last.versions.push(...names);
      return;
    }
  }
  order.push({ round: step.round, warmup: step.warmup, versions: names });
}

function reachedPrecision(
  scenario: Scenario,
  measuredRounds: number,
  trials: readonly Trial[],
  halfWidth: ExperimentOptions['halfWidth'],
): boolean {
  const stopping = scenario.stopping;
  if (stopping === undefined || halfWidth === undefined) return false;
  if (measuredRounds < stopping.minIterations) return false;
  if ((measuredRounds - stopping.minIterations) % stopping.checkEvery !== 0) return false;
  const width = halfWidth(trials);
  return width !== null && width <= stopping.halfWidth;
}

function progress(done: number, total: number, elapsed: number, scenario: Scenario): Progress {
  const bounded = Math.max(total, done);
  const budgetLeft =
    scenario.budget === undefined ? null : Math.max(0, scenario.budget * 1000 - elapsed);
  // With precision-based stopping the end is unknown: the budget is the only honest bound.
  if (scenario.stopping !== undefined) {
    return { done, total: done, elapsedMs: elapsed, etaMs: budgetLeft };
  }
  const eta = done === 0 ? null : (elapsed / done) * (bounded - done);
  return {
    done,
    total: bounded,
    elapsedMs: elapsed,
    etaMs: eta === null || budgetLeft === null ? eta : Math.min(eta, budgetLeft),
  };
}

function microseconds(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/**
 * The start offset of a staggered duet step (ns): `auto` sizes it from the median of
 * the first iterations (any version, warm-up included), a fixed duration is used as given.
 */
function staggerSizer(
  setting: Scenario['workload']['stagger'],
  trials: readonly Trial[],
): { ns(): number } {
  if (setting === 'off') return { ns: () => 0 };
  if (setting !== 'auto') return { ns: () => setting * 1e9 };
  let sized: number | null = null;
  return {
    ns() {
      if (sized !== null) return sized;
      if (trials.length < AUTO_STAGGER_TRIALS) return AUTO_STAGGER_FIRST_NS;
      const walls = trials.slice(0, AUTO_STAGGER_TRIALS).map((t) => t.wallMs * 1e6);
      walls.sort((a, b) => a - b);
      const median = walls[walls.length >> 1]!;
      sized = Math.min(AUTO_STAGGER_MAX_NS, AUTO_STAGGER_SHARE * median);
      return sized;
    },
  };
}
