import { rm } from 'node:fs/promises';
import path from 'node:path';
import { selectBenchmarks } from '../runner/benchmark-selection.js';
import { RunError } from '../runner/errors.js';
import {
  runExperiment,
  type ExperimentOptions,
  type ExperimentVersion,
} from '../runner/experiment.js';
import { listBenchmarks, perBenchmarkSupport } from '../runner/list-benchmarks.js';
import type { PerBenchmarkResult } from '../runner/per-benchmark.js';
import type { StopReason, Trial } from '../runner/samples.js';
import { matchesBenchmark } from '../scenario/benchmark-pattern.js';
import { lookSchedule } from '../stats/sequential.js';
import { nextStage, type StageEntry, type UnitState } from './allocation.js';
import {
  buildGoBinary,
  calibrateGo,
  fixedIterations,
  goUnitArgv,
  parseGoTest,
} from './prepare-go.js';
import type { SuiteRecord } from './record.js';
import {
  buildCargoBench,
  cargoRunDir,
  cargoUnitArgv,
  listCargoBench,
  parseCargoBench,
} from './prepare-cargo.js';

/** What a look of one unit concluded, from the trials so far (injected: analyze/). */
export type AssessUnit = (
  trials: readonly Trial[],
  unit: string,
  pairs: number,
  look: number,
  familySize: number,
) => { decision: 'settled' | 'open'; pairsToSettle: number | null } | null;

export type SuiteResult = PerBenchmarkResult & { suite: SuiteRecord };

interface Unit {
  name: string;
  /** argv per version index */
  argv: string[][];
  /** cwd per version index */
  cwd: string[];
  iterations: number | null;
  nsPerOp: number | null;
}

/** Before any measured seconds per pair: assume this (only sizes the first stage's order). */
const FALLBACK_SECONDS_PER_PAIR = 0.1;

/**
 * A suite under one budget (`suite:` in the scenario): each version's benchmark binary built
 * once where the format can (go: `go test -c`), every benchmark calibrated once to a fixed
 * iteration count (go: `-benchtime Nx`) at the finest granularity the tool prints, then
 * stages: every benchmark runs to the first scheduled look; after that only those whose
 * interval straddles the threshold get time, up to their next look, cheapest to settle first,
 * while the budget lasts (allocation.ts). Each stage of a benchmark is a whole experiment of
 * the scenario's mode with exactly the pairs the look needs. Rounds are numbered on across
 * stages, as in per-benchmark runs.
 */
export async function runSuite(
  options: ExperimentOptions & { baseline: string; assess: AssessUnit; workDir: string },
): Promise<SuiteResult> {
  const { scenario, versions, signal } = options;
  const spec = scenario.suite!;
  const budgetSeconds = scenario.budget!;
  const schedule = lookSchedule(spec.firstLook, spec.growth, spec.looks);
  const t0 = process.hrtime.bigint();
  const elapsed = (): number => Number(process.hrtime.bigint() - t0) / 1e9;
  const envOf = (i: number): NodeJS.ProcessEnv => ({
    ...options.env,
    ...scenario.workload.env,
    ...scenario.versions[i]?.env,
  });
  const prepared = await prepareUnits(options, envOf);
  const record: SuiteRecord = {
    allocation: spec.allocation,
    schedule,
    build: prepared.build,
    calibrationSeconds: prepared.calibrationSeconds,
    units: prepared.units.map((u) => ({
      name: u.name,
      argv: Object.fromEntries(versions.map((v, i) => [v.name, u.argv[i]!])),
      iterations: u.iterations,
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
  const measureStart = elapsed();
  let roundOffset = 0;
  // pairs each open unit still needs, as its last look estimated: orders the next stage
  const need = new Map<string, number | null>();
  /** Books a stage's pairs to a unit and, when they complete its look, judges that look. */
  const advance = (entry: StageEntry, measured: number, spentMs: number, stop: StopReason) => {
    const rec = record.units.find((u) => u.name === entry.name)!;
    const before = rec.pairs;
    rec.pairs += measured;
    rec.secondsPerPair = measured > 0 ? spentMs / 1000 / measured : rec.secondsPerPair;
    rec.stopReason = stop;
    if (before + entry.pairs > rec.pairs) return;
    rec.look = entry.look;
    const verdict = options.assess(
      result.trials,
      entry.name,
      schedule.pairs[entry.look]!,
      entry.look,
      record.units.length,
    );
    rec.decision = verdict?.decision ?? 'open';
    need.set(entry.name, verdict?.pairsToSettle ?? null);
  };
  try {
    for (;;) {
      const left = budgetSeconds - (elapsed() - measureStart);
      const states: UnitState[] = record.units.map((u) => ({
        name: u.name,
        pairs: u.pairs,
        look: u.look,
        secondsPerPair: u.secondsPerPair,
        decision: spec.allocation === 'equal' && u.look >= 0 ? 'open' : u.decision,
        pairsToSettle: need.get(u.name) ?? null,
      }));
      const stage = nextStage(
        states,
        schedule,
        left,
        FALLBACK_SECONDS_PER_PAIR,
        prepared.group !== null,
      );
      if (stage.length === 0 || left <= 0) break;
      record.stages.push({ units: stage.map((s) => s.name), look: stage[0]!.look });
      if (prepared.group !== null) {
        // one process per iteration runs every unit of the stage (pytest: one start-up)
        const remaining = budgetSeconds - (elapsed() - measureStart);
        const names = stage.map((s) => s.name);
        const pairs = Math.max(...stage.map((s) => s.pairs));
        const first = stage.every((s) => record.units.find((u) => u.name === s.name)!.pairs === 0);
        const startMs = elapsed() * 1000;
        const argv = prepared.group(names);
        const part = await runExperiment({
          ...options,
          scenario: {
            ...scenario,
            iterations: pairs,
            warmup: first ? scenario.warmup : 0,
            stopping: undefined,
            budget: Math.max(0.001, remaining),
            workload: { ...scenario.workload, command: argv },
          },
          halfWidth: undefined,
        });
        const spent = elapsed() * 1000 - startMs;
        roundOffset = absorb(result, part, startMs, roundOffset, undefined);
        const measured = part.order.filter((o) => !o.warmup).length;
        for (const entry of stage) advance(entry, measured, spent, part.stopReason);
        if (part.stopReason === 'failed' || part.stopReason === 'interrupted') {
          result.stopReason = part.stopReason;
          result.error = part.error;
          return finish(result, record);
        }
        continue;
      }
      for (const entry of stage) {
        if (signal.aborted) throw new RunError('interrupted');
        const unit = prepared.units.find((u) => u.name === entry.name)!;
        const rec = record.units.find((u) => u.name === entry.name)!;
        const remaining = budgetSeconds - (elapsed() - measureStart);
        if (remaining <= 0) {
          rec.stopReason = 'budget';
          continue;
        }
        const startMs = elapsed() * 1000;
        const part = await runExperiment({
          ...options,
          versions: versions.map((v, i) => ({ name: v.name, dir: unit.cwd[i]! })),
          scenario: {
            ...scenario,
            iterations: entry.pairs,
            warmup: rec.pairs === 0 ? scenario.warmup : 0,
            stopping: undefined,
            budget: remaining,
            workload: { ...scenario.workload, command: unit.argv[0]! },
          },
          commandFor: (i) => unit.argv[i]!,
          halfWidth: undefined,
        });
        const spent = elapsed() * 1000 - startMs;
        roundOffset = absorb(result, part, startMs, roundOffset, unit.name);
        const measured = part.order.filter((o) => !o.warmup).length;
        if (part.stopReason === 'failed' || part.stopReason === 'interrupted') {
          rec.pairs += measured;
          rec.stopReason = part.stopReason;
          result.stopReason = part.stopReason;
          result.error =
            part.stopReason === 'failed' ? `benchmark ${unit.name}: ${part.error}` : part.error;
          return finish(result, record);
        }
        advance(entry, measured, spent, part.stopReason);
      }
    }
  } finally {
    await Promise.all(prepared.cleanup.map((f) => f()));
    await rm(options.workDir, { recursive: true, force: true });
  }
  // the budget ended the run when some unit was still open with looks left to reach
  const last = schedule.pairs.length - 1;
  result.stopReason = record.units.some(
    (u) => u.look < 0 || (u.decision === 'open' && u.look < last),
  )
    ? 'budget'
    : 'precision';
  return finish(result, record);
}

/** Adds an experiment's trials and order to the suite's, rounds numbered on. */
function absorb(
  result: SuiteResult,
  part: Awaited<ReturnType<typeof runExperiment>>,
  startMs: number,
  roundOffset: number,
  benchmark: string | undefined,
): number {
  const shift = (ms: number): number => Math.round((ms + startMs) * 1000) / 1000;
  const tag = benchmark === undefined ? {} : { benchmark };
  for (const trial of part.trials) {
    result.trials.push({
      ...trial,
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

/** The units of the suite and how each version runs one. */
async function prepareUnits(
  options: ExperimentOptions & { baseline: string; workDir: string },
  envOf: (i: number) => NodeJS.ProcessEnv,
): Promise<{
  units: Unit[];
  lists: Record<string, string[]>;
  missing: { benchmark: string; versions: string[] }[];
  build: SuiteRecord['build'];
  calibrationSeconds: number;
  cleanup: (() => Promise<void>)[];
  /** With `granularity: group`: the argv that runs these units together in one process. */
  group: ((names: string[]) => string[]) | null;
}> {
  const { scenario, versions, signal } = options;
  const spec = scenario.suite!;
  const command = scenario.workload.command;
  const started = process.hrtime.bigint();
  const seconds = (from: bigint): number => Number(process.hrtime.bigint() - from) / 1e9;
  if (spec.build === 'auto' && scenario.workload.format === 'go') {
    const go = parseGoTest(command);
    const cleanup: (() => Promise<void>)[] = [];
    const binaries: { binary: string; cwd: string }[] = [];
    for (const [i, version] of versions.entries()) {
      const outDir = path.join(options.workDir, `go-${i}`);
      cleanup.push(() => rm(outDir, { recursive: true, force: true }));
      binaries.push(
        await buildGoBinary(go, outDir, {
          version: version.name,
          cwd: version.dir,
          env: envOf(i),
          signal,
        }),
      );
    }
    const buildSeconds = seconds(started);
    const calibrating = process.hrtime.bigint();
    const baseIndex = Math.max(
      0,
      versions.findIndex((v) => v.name === options.baseline),
    );
    const calibrated = await calibrateGo(binaries[baseIndex]!, go, 0.1, {
      version: options.baseline,
      cwd: binaries[baseIndex]!.cwd,
      env: envOf(baseIndex),
      signal,
    });
    const patterns = scenario.workload.benchmarks;
    const chosen = calibrated.filter(
      (c) => patterns === undefined || patterns.some((p) => matchesBenchmark(p, c.name)),
    );
    const grouped =
      spec.granularity === 'finest'
        ? chosen
        : [...new Set(chosen.map((c) => c.name.split('/')[0]!))].map((name) => ({
            name,
            nsPerOp: chosen
              .filter((c) => c.name.split('/')[0] === name)
              .reduce((a, c) => a + c.nsPerOp, 0),
          }));
    if (grouped.length === 0) {
      throw new RunError(
        `suite: the calibration run of ${options.baseline} printed no benchmark matching workload.benchmarks`,
      );
    }
    const units = grouped.map((c) => {
      const iterations =
        spec.calibration === 'fixed' ? fixedIterations(c.nsPerOp, spec.iterationTime) : null;
      return {
        name: c.name,
        argv: binaries.map((b) => goUnitArgv(b.binary, go, c.name, iterations)),
        cwd: binaries.map((b) => b.cwd),
        iterations,
        nsPerOp: c.nsPerOp,
      };
    });
    return {
      units,
      lists: Object.fromEntries(versions.map((v) => [v.name, units.map((u) => u.name)])),
      missing: [],
      build: { kind: 'go-test-c', seconds: buildSeconds },
      calibrationSeconds: seconds(calibrating),
      cleanup,
      group: null,
    };
  }
  const format = scenario.workload.format;
  if (spec.build === 'auto' && (format === 'criterion' || format === 'cargo')) {
    const cargo = parseCargoBench(command);
    const executables: string[] = [];
    for (const [i, version] of versions.entries()) {
      executables.push(
        await buildCargoBench(cargo, {
          version: version.name,
          cwd: version.dir,
          env: envOf(i),
          signal,
        }),
      );
    }
    const buildSeconds = seconds(started);
    const listing = process.hrtime.bigint();
    const lists = new Map<string, string[]>();
    for (const [i, version] of versions.entries()) {
      lists.set(
        version.name,
        await listCargoBench(executables[i]!, cargo, {
          version: version.name,
          cwd: version.dir,
          env: envOf(i),
          signal,
        }),
      );
    }
    const selection = selectBenchmarks(lists, options.baseline, scenario.workload.benchmarks);
    // criterion writes its files under <cwd>/target/criterion: one directory per version
    const dirs = await Promise.all(versions.map((_, i) => cargoRunDir(options.workDir, i)));
    const quick = spec.calibration === 'fixed';
    return {
      units: selection.run.map((name) => ({
        name,
        argv: executables.map((exe) =>
          cargoUnitArgv(exe, cargo, name, quick, format === 'cargo' ? 'libtest' : 'criterion'),
        ),
        cwd: dirs,
        iterations: null,
        nsPerOp: null,
      })),
      lists: Object.fromEntries(lists),
      missing: selection.missing,
      build: { kind: 'cargo-bench-no-run', seconds: buildSeconds },
      calibrationSeconds: seconds(listing),
      cleanup: [],
      group: null,
    };
  }
  const support = perBenchmarkSupport(scenario);
  const lists = new Map<string, string[]>();
  for (const [i, version] of versions.entries()) {
    lists.set(
      version.name,
      await listBenchmarks(command, support, {
        version: version.name,
        cwd: version.dir,
        env: envOf(i),
        signal,
      }),
    );
  }
  const selection = selectBenchmarks(lists, options.baseline, scenario.workload.benchmarks);
  const allNames = [...new Set([...lists.values()].flat())];
  return {
    units: selection.run.map((name) => ({
      name,
      argv: versions.map(() => support.filterArgv(command, name, allNames)),
      cwd: versions.map((v: ExperimentVersion) => v.dir),
      iterations: null,
      nsPerOp: null,
    })),
    lists: Object.fromEntries(lists),
    missing: selection.missing,
    build: { kind: 'none', seconds: 0 },
    calibrationSeconds: seconds(started),
    cleanup: [],
    group:
      spec.granularity === 'group'
        ? (names) => {
            if (support.filterSetArgv === undefined) {
              throw new RunError(
                `suite.granularity: group needs a format that runs several chosen benchmarks in one process (pytest); ${scenario.workload.format} runs one at a time`,
              );
            }
            return support.filterSetArgv(command, names, allNames);
          }
        : null,
  };
}
