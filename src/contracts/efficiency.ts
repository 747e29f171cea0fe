/**
 * Where a run's machine time went: how much of it the benchmark tool itself says it spent
 * measuring. Plain data in samples.json and comparison.json; every share is of the run's
 * whole duration.
 */
export interface Efficiency {
  /** The format whose measured time this is (null: the command's wall time was the metric). */
  format: string | null;
  /** The run's duration, start to end, s (set-up, build and calibration included). */
  machineSeconds: number;
  /** From the first trial's start to the last one's end, s. */
  measuringSeconds: number;
  /** CPU slots measured at once (2 in a duet, 1 in rmit). */
  slots: number;
  /** Σ of the trials' wall times, s. */
  trialSeconds: number;
  /** Σ of what the tool says it measured, s (null when it does not say). */
  measuredSeconds: number | null;
  /** measured ÷ (slots × machine time): the headline figure. */
  efficiency: number | null;
  /** Shares of slots × machine time: before measuring (set-up, build, calibration), between trials (harness, warm-up included), in the process but not measuring (start, the tool's own calibration and overhead), measuring. */
  breakdown: { preparation: number; harness: number; process: number; measured: number } | null;
  /** Measured pairs (paired modes) or trials per second of machine time. */
  pairsPerSecond: number;
}
