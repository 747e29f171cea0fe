import type { IsolationReport, IsolationRequest } from '../contracts/isolation.js';
import { machineInfo } from '../runner/machine.js';
import type { MachineInfo } from '../contracts/machine.js';
import { RunError } from '../process/errors.js';
import { TOOL_VERSION } from '../pipeline/local-run.js';
import type { LoadedScenario } from '../scenario/load.js';
import type { Mode } from '../scenario/schema.js';
import { spawnNoise, type NoiseProcess } from '../noise/spawn.js';
import type { NoiseKind } from '../noise/options.js';
import { injectedUnits } from '../workload/kernel.js';
import { getMethod, type MethodName, type RecordingKind, type WindowOutcome } from './methods.js';
import { referenceSource, scenarioSource, type RecordingSource } from './record.js';
import { recommend, summarizeCell, type CellSummary, type Recommendation } from './summary.js';
import { traceFromSamples } from './trace.js';

export const CALIBRATION_SCHEMA_VERSION = 1;

export interface CalibrateOptions {
  methods: MethodName[];
  /** Injected changes (fractions); 0 (A/A) is always included. Ignored with `scenario`. */
  changes: number[];
  /** Comparisons per method and change. */
  windows: number;
  /** Comparisons cut from one recording (a fresh run: new processes, new CPU draw). */
  windowsPerRun: number;
  /** Time budget of one comparison, seconds. */
  budget: number;
  /** Chunks of the reference workload per iteration (the baseline W). */
  units: number;
  /** Isolation of the `duet` method (`duet-none` always runs without). */
  isolation: IsolationRequest;
  noise: { threads: number; load: number; kind: NoiseKind } | null;
  /** Label of the condition in the results (`quiet`, `noise`). */
  condition: string;
  level: number;
  resamples: number;
  seed: number;
  targetMde: number;
  /** Measured effect of each injected change, keyed by the change (see workload-ground-truth). */
  trueChanges?: Record<string, number>;
  /** A/A of the user's own scenario instead of the reference workload. */
  scenario?: LoadedScenario;
  /**
   * Another workload with injected changes instead of the reference workload (the accuracy
   * benchmark's command programs): it makes a source for versions `base`, `aa` and one per
   * change, named as calibrate names them.
   */
  source?: CustomSource;
  signal: AbortSignal;
  env: NodeJS.ProcessEnv;
  log?: (line: string) => void;
}

export interface CustomSource {
  /** How the workload is described in the results. */
  description: string;
  create(versions: { name: string; change: number }[]): Promise<RecordingSource>;
}

/** What `duetkit calibrate --json` prints and the accuracy benchmark stores. Plain JSON. */
export interface CalibrationResult {
  schemaVersion: typeof CALIBRATION_SCHEMA_VERSION;
  tool: { name: 'duetkit'; version: string };
  startedAt: string;
  finishedAt: string;
  machine: MachineInfo;
  condition: string;
  workload:
    | { kind: 'reference'; units: number }
    | { kind: 'scenario'; file: string | null }
    | { kind: 'custom'; description: string };
  settings: Omit<CalibrateOptions, 'signal' | 'env' | 'log' | 'scenario' | 'trueChanges'>;
  /** Isolation in effect for each kind of recording (from its first run). */
  isolation: Partial<Record<RecordingKind, IsolationReport>>;
  cells: CellSummary[];
  recommendation: Recommendation | null;
}

const RECORDING_MODE: Record<RecordingKind, Mode> = {
  duet: 'duet',
  'duet-none': 'duet',
  sequential: 'rmit',
};
/** Share of the budget added to every run, and seconds for starting the processes. */
const BUDGET_MARGIN = 1.1;
const STARTUP_SECONDS = 3;

/**
 * Runs the calibration: recordings of A/A and injected-slowdown comparisons for every method,
 * cut into non-overlapping windows of one budget each (trace-driven, as Abedi & Brecht), each
 * window judged as one comparison, and the windows summarised per method and change.
 */
export async function calibrate(options: CalibrateOptions): Promise<CalibrationResult> {
  const startedAt = new Date().toISOString();
  const changes =
    options.scenario !== undefined ? [0] : [0, ...options.changes.filter((c) => c !== 0)];
  const outcomes = new Map<string, WindowOutcome[]>();
  const isolation: CalibrationResult['isolation'] = {};
  const kinds = [...new Set(options.methods.map((m) => getMethod(m).recording))];
  let noise: NoiseProcess | null = null;
  try {
    if (options.noise !== null) {
      noise = await spawnNoise({ ...options.noise, durationSeconds: 24 * 3600 });
      options.log?.(
        `noise: ${options.noise.threads} ${options.noise.kind} thread(s) at ${options.noise.load} (pid ${noise.pid})`,
      );
    }
    for (const [k, kind] of kinds.entries()) {
      const methods = options.methods.filter((m) => getMethod(m).recording === kind);
      const groups = kind === 'sequential' ? [changes] : changes.map((c) => [c]);
      for (const [g, group] of groups.entries()) {
        const source = await sourceFor(options, group);
        try {
          await recordGroup(
            options,
            kind,
            methods,
            group,
            source,
            outcomes,
            isolation,
            options.seed + 7919 * (k * 16 + g),
          );
        } finally {
          await source.dispose();
        }
      }
    }
  } finally {
    await noise?.stop();
  }
  const cells: CellSummary[] = [];
  for (const method of options.methods) {
    for (const change of changes) {
      const found = (outcomes.get(cellKey(method, change)) ?? []).slice(0, options.windows);
      const trueChange = options.trueChanges?.[String(change)] ?? (change === 0 ? 0 : null);
      cells.push(
        summarizeCell(
          {
            method,
            label: getMethod(method).label,
            condition: options.condition,
            change,
            trueChange,
          },
          found,
        ),
      );
    }
  }
  const {
    signal: _s,
    env: _e,
    log: _l,
    scenario,
    trueChanges: _t,
    source: _source,
    ...settings
  } = options;
  return {
    schemaVersion: CALIBRATION_SCHEMA_VERSION,
    tool: { name: 'duetkit', version: TOOL_VERSION },
    startedAt,
    finishedAt: new Date().toISOString(),
    machine: machineInfo(),
    condition: options.condition,
    workload:
      scenario !== undefined
        ? { kind: 'scenario', file: scenario.file }
        : options.source !== undefined
          ? { kind: 'custom', description: options.source.description }
          : { kind: 'reference', units: options.units },
    settings: { ...settings, changes },
    isolation,
    cells,
    recommendation: recommend(cells, options.targetMde, 1 - options.level),
  };
}

/** Versions: base, then `aa` (a second, identical base) for A/A, then one per injected change. */
async function sourceFor(options: CalibrateOptions, changes: number[]): Promise<RecordingSource> {
  if (options.scenario !== undefined) return scenarioSource(options.scenario);
  if (options.source !== undefined) {
    return options.source.create([
      { name: 'base', change: 0 },
      ...changes.map((change) => ({ name: versionName(change), change })),
    ]);
  }
  const versions = [{ name: 'base', units: options.units }];
  for (const change of changes) {
    versions.push({
      name: versionName(change),
      units: change === 0 ? options.units : injectedUnits(options.units, change),
    });
  }
  return referenceSource(versions);
}

async function recordGroup(
  options: CalibrateOptions,
  kind: RecordingKind,
  methods: MethodName[],
  changes: number[],
  source: RecordingSource,
  outcomes: Map<string, WindowOutcome[]>,
  isolation: CalibrationResult['isolation'],
  seed: number,
): Promise<void> {
  // A sequential trace interleaves every version; one comparison uses two of them.
  const share = kind === 'sequential' ? source.versions.length / 2 : 1;
  const budgetSeconds =
    options.windowsPerRun * options.budget * share * BUDGET_MARGIN + STARTUP_SECONDS;
  const enough = (): boolean =>
    methods.every((m) =>
      changes.every((c) => (outcomes.get(cellKey(m, c))?.length ?? 0) >= options.windows),
    );
  const maxRuns = 2 * Math.ceil(options.windows / options.windowsPerRun) + 2;
  for (let run = 0; run < maxRuns && !enough(); run++) {
    if (options.signal.aborted) throw new RunError('interrupted');
    options.log?.(
      `recording ${kind} (${changes.map(describeChange).join(', ')}), run ${run + 1}: ${budgetSeconds.toFixed(0)} s`,
    );
    const samples = await source.record(
      {
        mode: RECORDING_MODE[kind],
        isolation: kind === 'duet' ? options.isolation : kind === 'duet-none' ? 'none' : 'auto',
        budgetSeconds,
        seed: seed + run,
      },
      options.signal,
      options.env,
    );
    isolation[kind] ??= samples.isolation;
    const trace = traceFromSamples(samples);
    for (const method of methods) {
      for (const [i, change] of changes.entries()) {
        const head = source.versions.indexOf(
          options.scenario !== undefined ? 'aa' : versionName(change),
        );
        const got = getMethod(method).evaluate(trace, 0, head > 0 ? head : i + 1, {
          budgetMs: options.budget * 1000,
          level: options.level,
          resamples: options.resamples,
          seed: (seed + 31 * run) >>> 0,
        });
        const key = cellKey(method, change);
        outcomes.set(key, [...(outcomes.get(key) ?? []), ...got]);
      }
    }
  }
}

function cellKey(method: MethodName, change: number): string {
  return `${method} ${change}`;
}

function versionName(change: number): string {
  return change === 0
    ? 'aa'
    : `plus-${String(Math.round(change * 10000) / 100).replace('.', '_')}pct`;
}

export function describeChange(change: number): string {
  return change === 0 ? 'A/A' : `${change > 0 ? '+' : ''}${Math.round(change * 1000) / 10}%`;
}
