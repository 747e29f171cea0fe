import type { SamplesFile, Trial } from '../../src/contracts/samples.js';
import type { SuiteUnitRecord } from '../../src/contracts/suite-record.js';
import { parseScenario } from '../../src/scenario/load.js';
import { createRng } from '../../src/stats/rng.js';

/** One metric of a hand-built benchmark: its value for a version (0 base, 1 head) in a round. */
export interface MetricSpec {
  name: string;
  unit: string;
  value: (version: number, round: number) => number;
  biggerIsBetter?: boolean;
}

/** A benchmark of a hand-built run: its metrics and how many measured pairs it got. */
export interface BenchmarkSpec {
  /** Set for per-benchmark runs and suites: the trials' `benchmark`. */
  benchmark?: string;
  pairs: number;
  metrics: MetricSpec[];
}

/** A timing of `ms` around 100 with 1% noise, `ratio` times slower on the head (seeded). */
export function timing(name: string, ratio: number, seed = 3): MetricSpec {
  const rng = createRng(seed);
  const noise = new Map<string, number>();
  return {
    name,
    unit: 'ns/op',
    value: (v, r) => {
      const key = `${v}/${r}`;
      if (!noise.has(key)) noise.set(key, 1 + 0.01 * rng.nextNormal());
      return 100 * (v === 1 ? ratio : 1) * noise.get(key)!;
    },
  };
}

/** A metric with one constant per side (go's allocs/op). */
export function constant(name: string, unit: string, base: number, head: number): MetricSpec {
  return { name, unit, value: (v) => (v === 0 ? base : head) };
}

/**
 * A duet run of `base` against `head`, paired by round, no warm-up: each benchmark's trials
 * in rounds numbered on across benchmarks (as a per-benchmark run numbers them).
 */
export function pairedRun(
  benchmarks: BenchmarkSpec[],
  options: { stopReason?: SamplesFile['stopReason']; budget?: number; error?: string } = {},
): SamplesFile {
  const trials: Trial[] = [];
  let round = 0;
  for (const spec of benchmarks) {
    for (let i = 0; i < spec.pairs; i++, round++) {
      for (const version of [0, 1]) {
        trials.push({
          version,
          round,
          warmup: false,
          slot: version,
          startMs: round,
          endMs: round + 1,
          wallMs: 1,
          ...(spec.benchmark === undefined ? {} : { benchmark: spec.benchmark }),
          metrics: spec.metrics.map((m) => ({
            name: m.name,
            unit: m.unit,
            biggerIsBetter: m.biggerIsBetter ?? false,
            values: [m.value(version, i)],
          })),
        });
      }
    }
  }
  const scenario = {
    ...parseScenario({
      mode: 'duet',
      versions: [
        { name: 'base', path: 'base' },
        { name: 'head', path: 'head' },
      ],
      workload: { command: 'x' },
      analysis: { resamples: 2000 },
    }),
    ...(options.budget === undefined ? {} : { budget: options.budget }),
  };
  const stopReason = options.stopReason ?? 'iterations';
  return {
    schemaVersion: 1,
    tool: { name: 'duetkit', version: 'test' },
    complete: stopReason !== 'failed' && stopReason !== 'interrupted',
    stopReason,
    error: options.error ?? null,
    scenario,
    scenarioFile: null,
    mode: 'duet',
    seed: 8,
    startedAt: '2026-11-26T10:00:00.000Z',
    finishedAt: '2026-11-26T10:01:00.000Z',
    machine: {
      hostname: '',
      platform: '',
      arch: '',
      kernel: '',
      cpuModel: '',
      cores: 2,
      memoryBytes: 0,
      loadAverage: [0, 0, 0],
      node: '',
    },
    isolation: {
      requested: 'auto',
      kind: 'none',
      slots: [],
      harnessCpus: null,
      cgroup: null,
      warnings: [],
    },
    versions: ['base', 'head'].map((name) => ({
      name,
      source: { path: name },
      commit: null,
      dirty: false,
      dir: name,
    })),
    order: [],
    trials,
  };
}

/**
 * The run as a suite (`samples.suite`): one unit per benchmark, with the pairs it got, the
 * last look it reached for those pairs (schedule 20, 60) and how it stopped.
 */
export function asSuite(
  samples: SamplesFile,
  units: { name: string; pairs: number; stopReason: SuiteUnitRecord['stopReason'] }[],
): SamplesFile {
  const schedule = { pairs: [20, 60], weights: [0.25, 0.75] };
  return {
    ...samples,
    suite: {
      allocation: 'adaptive',
      schedule,
      build: { kind: 'none', seconds: 0 },
      calibrationSeconds: 0,
      units: units.map((u) => ({
        name: u.name,
        argv: { base: ['x'], head: ['x'] },
        iterations: null,
        calibratedNsPerOp: null,
        pairs: u.pairs,
        look: u.pairs >= 60 ? 1 : u.pairs >= 20 ? 0 : -1,
        decision: u.pairs >= 20 ? 'settled' : null,
        secondsPerPair: u.pairs > 0 ? 0.1 : null,
        stopReason: u.stopReason,
      })),
      stages: [],
    },
  };
}
