import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { IsolationRequest } from '../contracts/isolation.js';
import { selfArgv } from '../io/self-argv.js';
import { runScenario } from '../pipeline/local-run.js';
import { RunError } from '../process/errors.js';
import type { SamplesFile } from '../contracts/samples.js';
import type { LoadedScenario } from '../scenario/load.js';
import { parseScenario } from '../scenario/load.js';
import type { Mode, ScenarioInput } from '../scenario/schema.js';
import { KERNEL_BENCHMARK, UNITS_FILE } from '../workload/program.js';

/** One recording: a run of the given versions, long enough for `windows` comparisons. */
export interface RecordingRequest {
  mode: Mode;
  isolation: IsolationRequest;
  /** Seconds of measurement to ask the runner for (its `budget`). */
  budgetSeconds: number;
  seed: number;
  /** Raise the measured processes' CPU weight (the scenario's `cpuWeight`). Default true. */
  cpuWeight?: boolean;
}

/** Where recordings come from: the reference workload, or the user's own scenario. */
export interface RecordingSource {
  /** Version names in the order the samples will hold them. */
  readonly versions: string[];
  record(
    request: RecordingRequest,
    signal: AbortSignal,
    env: NodeJS.ProcessEnv,
  ): Promise<SamplesFile>;
  dispose(): Promise<void>;
}

/**
 * The reference workload (`duetkit workload --serve`) at the given units per version, one
 * directory per version holding its `units` file; run with the persistent driver.
 */
export async function referenceSource(
  versions: { name: string; units: number }[],
): Promise<RecordingSource> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'duetkit-calibrate-'));
  for (const v of versions) {
    await mkdir(path.join(root, v.name));
    await writeFile(path.join(root, v.name, UNITS_FILE), `${v.units}\n`);
  }
  const command = [...selfArgv(), 'workload', '--serve', '--units-file', UNITS_FILE];
  return {
    versions: versions.map((v) => v.name),
    record(request, signal, env) {
      const input: ScenarioInput = {
        name: 'calibrate',
        mode: request.mode,
        versions: versions.map((v) => ({ name: v.name, path: v.name })),
        workload: { driver: 'persistent', command, name: KERNEL_BENCHMARK },
        ...recordingCommon(request),
      };
      return runChecked(
        { scenario: parseScenario(input, 'calibration scenario'), file: null, baseDir: root },
        signal,
        env,
      );
    },
    dispose: () => rm(root, { recursive: true, force: true }),
  };
}

/**
 * A/A of the user's scenario: its first version twice (`base` and `aa`), in the requested
 * mode, isolation and budget; stopping rules are dropped (the budget decides).
 */
export function scenarioSource(loaded: LoadedScenario): RecordingSource {
  const first = loaded.scenario.versions[0]!;
  return {
    versions: ['base', 'aa'],
    record(request, signal, env) {
      const { stopping: _stopping, seed: _seed, budget: _budget, ...rest } = loaded.scenario;
      const input = {
        ...rest,
        versions: [
          { ...first, name: 'base' },
          { ...first, name: 'aa' },
        ],
        analysis: { ...rest.analysis, baseline: 'base' },
        ...recordingCommon(request),
      } as ScenarioInput;
      return runChecked(
        { ...loaded, scenario: parseScenario(input, `${loaded.file ?? 'scenario'} (A/A)`) },
        signal,
        env,
      );
    },
    dispose: async () => undefined,
  };
}

/** The scenario fields every recording shares, from its request. */
export function recordingCommon(request: RecordingRequest): Partial<ScenarioInput> {
  return {
    mode: request.mode,
    isolation: request.isolation,
    iterations: 1_000_000,
    warmup: 2,
    budget: request.budgetSeconds,
    seed: request.seed >>> 0,
    ...(request.cpuWeight === undefined ? {} : { cpuWeight: request.cpuWeight }),
  };
}

async function runChecked(
  loaded: LoadedScenario,
  signal: AbortSignal,
  env: NodeJS.ProcessEnv,
): Promise<SamplesFile> {
  const samples = await runScenario(loaded, { signal, env });
  if (!samples.complete) {
    throw new RunError(
      `calibration run ${samples.stopReason}: ${samples.error ?? 'no reason given'}`,
    );
  }
  return samples;
}
