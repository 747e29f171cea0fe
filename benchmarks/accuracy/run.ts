import { readFile } from 'node:fs/promises';
import { calibrate, type CalibrationResult } from '../../src/calibrate/calibrate.js';
import { METHOD_NAMES } from '../../src/calibrate/methods.js';
import type { IsolationRequest } from '../../src/isolation/types.js';
import type { NoiseKind } from '../../src/noise/options.js';

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
  },
): Promise<AccuracyResults> {
  const trueChanges =
    options.groundTruth === null || options.groundTruth.units !== config.units
      ? undefined
      : Object.fromEntries(
          Object.entries(options.groundTruth.changes).map(([k, v]) => [k, v.measured]),
        );
  const conditions: CalibrationResult[] = [];
  for (const [i, condition] of config.conditions.entries()) {
    options.log?.(`== condition: ${condition}`);
    conditions.push(
      await calibrate({
        methods: [...METHOD_NAMES],
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
        seed: config.seed + 104729 * i,
        targetMde: 0.01,
        ...(trueChanges === undefined ? {} : { trueChanges }),
        signal: options.signal,
        env: options.env,
        ...(options.log === undefined ? {} : { log: options.log }),
      }),
    );
  }
  return {
    schemaVersion: 1,
    config,
    date: new Date().toISOString(),
    groundTruth: options.groundTruth,
    conditions,
  };
}
