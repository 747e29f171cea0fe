import type { StopReason } from './stop-reason.js';

/** What a suite run (`suite:` in the scenario) planned and did, in samples.json. Plain data. */
export interface SuiteRecord {
  allocation: 'adaptive' | 'equal';
  /** Pairs at each scheduled look and the share of the error each look spends. */
  schedule: { pairs: number[]; weights: number[] };
  /** How each version's benchmarks ran: a binary built once, or the command as written. */
  build: { kind: 'go-test-c' | 'cargo-bench-no-run' | 'none'; seconds: number };
  /** Seconds spent finding the benchmarks and calibrating them, before measuring. */
  calibrationSeconds: number;
  /** What was planned before measuring (plan.ts); absent in files written before it. */
  plan?: {
    /** Repetitions per process (their values pair by position when more than 1). */
    repetitions: number;
    /**
     * How a trial's several values became its one (`suite.within`): the fastest, or the median.
     * Absent in files written before it: the median.
     */
    within?: 'fastest' | 'median';
    /** Pairs at the first look, after raising it to the floor and to whole rounds. */
    firstLook: number;
    /** Fewest pairs at which an exact rank test could call a change in this family. */
    decisionFloor: number;
    /**
     * Fewest pairs at which a look calls a change (stats/sequential.ts MIN_PAIRS_TO_CALL);
     * absent in files written before it: no floor.
     */
    callFloor?: number;
    /** Seconds a process takes to start and measure nothing; null when not measured. */
    startupSeconds: number | null;
    /** Predicted seconds for every benchmark's first look; null when nothing calibrated. */
    screeningSeconds: number | null;
    /** What was said at once when the budget could not screen every benchmark. */
    warning: string | null;
    /**
     * The looks set again from the pace of the first benchmarks measured, before any reached a
     * look (plan.ts replanFromPace); absent when they stayed as planned.
     */
    replanned?: {
      afterUnits: number;
      /** Machine seconds per pair those benchmarks took, warm-up rounds included. */
      secondsPerPair: number;
      /** What the plan predicted per pair of the same benchmarks; null: nothing calibrated. */
      predictedSecondsPerPair: number | null;
      /** The looks before. */
      from: { pairs: number[]; weights: number[] };
    };
  };
  units: SuiteUnitRecord[];
  /** Stages in order: which units each advanced, to which look. */
  stages: { units: string[]; look: number }[];
}

export interface SuiteUnitRecord {
  /** The benchmark as the tool names it (sub-benchmarks joined by `/`). */
  name: string;
  /** The argv of each version, by version name. */
  argv: Record<string, string[]>;
  /** Fixed iterations of every run, or of every part (`calibration: fixed`), null when the tool chose. */
  iterations: number | null;
  /** Timed parts a process runs its work as (go's `suite.parts`); absent: 1. */
  parts?: number;
  /** Time per operation the calibration run measured, ns (null without one). */
  calibratedNsPerOp: number | null;
  /** Pairs measured, and the last look (0-based) they reached (−1: none). */
  pairs: number;
  look: number;
  /** What the last look decided, null before the first. */
  decision: 'settled' | 'open' | null;
  /** Machine seconds per pair, as measured. */
  secondsPerPair: number | null;
  stopReason: StopReason;
}

/** Whether a metric is one of a unit's: its own name, or a metric of it (`name - MB/s`). */
export function belongsTo(metric: string, unit: string): boolean {
  return metric === unit || metric.startsWith(`${unit} - `);
}
