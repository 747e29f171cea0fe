import { readFile } from 'node:fs/promises';
import {
  calibrate,
  type CalibrateOptions,
  type CalibrationResult,
} from '../../src/calibrate/calibrate.js';
import { METHOD_NAMES, type MethodName } from '../../src/calibrate/methods.js';
import type { IsolationRequest } from '../../src/contracts/isolation.js';
import type { NoiseKind } from '../../src/noise/options.js';
import { buildPrograms, measureStepRates } from '../fidelity/programs.js';
import { getRoute, stepsFor } from '../fidelity/routes.js';
import { aloneSlot, measureTruth, truthOf } from '../fidelity/truth.js';
import { commandSource } from './command-source.js';
import os from 'node:os';
import path from 'node:path';

/** One configuration of the accuracy benchmark. */
export interface AccuracyConfig {
  kind: 'full' | 'quick' | 'smoke';
  /** Seconds of measurement per comparison. */
  budget: number;
  /** Comparisons per method, condition and change (≥ 20 in the full run). */
  repetitions: number;
  /** Comparisons cut from one recording. */
  perRun: number;
  units: number;
  changes: number[];
  conditions: ('quiet' | 'noise')[];
  noise: { threads: number; load: number; kind: NoiseKind };
  /** Isolation of the isolated duet: `cpuset` in the full run (fails loudly without it). */
  isolation: IsolationRequest;
  resamples: number;
  level: number;
  seed: number;
  /**
   * The command workload (a C program per iteration, ~`sizeMs` of work) measured with the
   * same methods, or null to skip it.
   */
  command: { sizeMs: number; methods: MethodName[] } | null;
}

export const FULL: AccuracyConfig = {
  kind: 'full',
  budget: 10,
  repetitions: 20,
  perRun: 5,
  units: 1000,
  changes: [0.01, 0.02, 0.05],
  conditions: ['quiet', 'noise'],
  noise: { threads: 2, load: 0.5, kind: 'cpu' },
  isolation: 'cpuset',
  resamples: 10_000,
  level: 0.99,
  seed: 20250601,
  command: { sizeMs: 10, methods: ['duet', 'duet-gmean', 'rmit', 'mct'] },
};

export const QUICK: AccuracyConfig = {
  ...FULL,
  kind: 'quick',
  budget: 1.5,
  repetitions: 3,
  perRun: 3,
  units: 300,
  isolation: 'auto',
  resamples: 2000,
};

/** What the benchmark stores (benchmarks/results/accuracy-*.json). Plain JSON. */
export interface AccuracyResults {
  schemaVersion: 1;
  config: AccuracyConfig;
  date: string;
  /** Measured effect of each injected change (benchmarks/workload-ground-truth.ts), or null. */
  groundTruth: GroundTruth | null;
  /** The command workload's ground truth: each change measured alone with hyperfine. */
  commandTruth?: GroundTruth | null;
  conditions: CalibrationResult[];
}

export interface GroundTruth {
  date: string;
  units: number;
  rounds: number;
  /** Keyed by the intended change ("0.01"): measured change and its 99% CI. */
  changes: Record<string, { measured: number; lower: number; upper: number }>;
}

/** Reads stored ground truth; null when the file does not exist yet. */
export async function readGroundTruth(file: string): Promise<GroundTruth | null> {
  const text = await readFile(file, 'utf8').catch(() => null);
  return text === null ? null : (JSON.parse(text) as GroundTruth);
}

/**
 * Runs every method (duet isolated and not, rmit, mct, the fixed-threshold baselines) under
 * every condition through `calibrate`, the same pipeline users run.
 */
export async function runAccuracy(
  config: AccuracyConfig,
  options: {
    groundTruth: GroundTruth | null;
    signal: AbortSignal;
    env: NodeJS.ProcessEnv;
    log?: (line: string) => void;
    /** Skip the reference workload (measure only the command workload). */
    commandOnly?: boolean;
    /** Skip the command workload (measure only the reference workload). */
    referenceOnly?: boolean;
  },
): Promise<AccuracyResults> {
  const trueChanges =
    options.groundTruth === null || options.groundTruth.units !== config.units
      ? undefined
      : Object.fromEntries(
          Object.entries(options.groundTruth.changes).map(([k, v]) => [k, v.measured]),
        );
  // One condition through `calibrate`: what differs between the workloads comes in `rest`.
  const measure = (
    condition: AccuracyConfig['conditions'][number],
    rest: Pick<CalibrateOptions, 'methods' | 'seed' | 'trueChanges' | 'source'>,
  ): Promise<CalibrationResult> =>
    calibrate({
      changes: config.changes,
      windows: config.repetitions,
      windowsPerRun: Math.min(config.perRun, config.repetitions),
      budget: config.budget,
      units: config.units,
      isolation: config.isolation,
      noise: condition === 'noise' ? config.noise : null,
      condition,
      level: config.level,
      resamples: config.resamples,
      targetMde: 0.01,
      signal: options.signal,
      env: options.env,
      ...(options.log === undefined ? {} : { log: options.log }),
      ...rest,
    });
  const conditions: CalibrationResult[] = [];
  for (const [i, condition] of config.conditions.entries()) {
    if (options.commandOnly === true) break;
    options.log?.(`== condition: ${condition}`);
    conditions.push(
      await measure(condition, {
        methods: [...METHOD_NAMES],
        seed: config.seed + 104729 * i,
        ...(trueChanges === undefined ? {} : { trueChanges }),
      }),
    );
  }
  let commandTruth: GroundTruth | null = null;
  if (config.command !== null && options.referenceOnly !== true) {
    const programs = buildPrograms(path.join(os.tmpdir(), 'duetkit-accuracy-command'));
    const rates = measureStepRates(programs, 1);
    commandTruth = await measureCommandTruth(config, programs, rates, options.log);
    const commandChanges = Object.fromEntries(
      Object.entries(commandTruth.changes).map(([k, v]) => [k, v.measured]),
    );
    for (const [i, condition] of config.conditions.entries()) {
      options.log?.(`== condition: ${condition}, command workload`);
      conditions.push(
        await measure(condition, {
          methods: config.command.methods,
          seed: config.seed + 104729 * (i + 7),
          trueChanges: commandChanges,
          source: commandSource(programs, rates, config.command.sizeMs),
        }),
      );
    }
  }
  return {
    schemaVersion: 1,
    config,
    date: new Date().toISOString(),
    groundTruth: options.groundTruth,
    commandTruth,
    conditions,
  };
}

/** Each change of the command workload measured alone with hyperfine (benchmarks/fidelity). */
async function measureCommandTruth(
  config: AccuracyConfig,
  programs: ReturnType<typeof buildPrograms>,
  rates: ReturnType<typeof measureStepRates>,
  log?: (line: string) => void,
): Promise<GroundTruth> {
  const route = getRoute('c-command');
  const size = config.command!.sizeMs;
  // `units` here: the base's chain steps per run.
  const truth: GroundTruth = {
    date: new Date().toISOString(),
    units: stepsFor(route, rates, size, 0),
    rounds: 0,
    changes: {},
  };
  for (const change of config.changes) {
    const alone = await aloneSlot();
    try {
      const values = await measureTruth({
        route,
        programs,
        steps: [stepsFor(route, rates, size, 0), stepsFor(route, rates, size, change)],
        run: alone.run,
        sizeMs: size,
        seconds: config.kind === 'full' ? 60 : config.kind === 'quick' ? 5 : 1,
        seed: 17,
      });
      const t = truthOf(values.wall!, 1);
      truth.rounds += t.n;
      truth.changes[String(change)] = { measured: t.change, lower: t.lower, upper: t.upper };
      log?.(`command truth ${change}: ${(t.change * 100).toFixed(3)}%`);
    } finally {
      await alone.isolation.dispose();
    }
  }
  return truth;
}
