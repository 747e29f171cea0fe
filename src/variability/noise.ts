import { median } from '../stats/descriptive.js';
import { bootstrapOneSample, type StatisticInterval } from '../stats/one-sample-bootstrap.js';
import { minimumDetectableEffect } from '../stats/power.js';
import { wilsonInterval, type ProportionInterval } from '../stats/proportion.js';
import type { SeriesPoint } from './series.js';

export interface NoiseSettings {
  level: number;
  resamples: number;
  seed: number;
}

/** One run's detectable change: from its A/A duet when it had one, else from its own spread. */
export interface MdePoint {
  runId: string;
  at: string;
  /** Smallest relative change detectable at `level` with 80% power. */
  mde: number;
  /** Width of the A/A interval (upper − lower), when the run had an A/A duet. */
  aaCiWidth: number | null;
  level: number;
  source: 'aa' | 'run-cv';
}

export interface Noise {
  /** Median over runs of each run's own CV (spread of its iterations), with a bootstrap CI. */
  withinRunCv: StatisticInterval | null;
  /**
   * CV of the run values over runs, after the steps on main are divided out (each value
   * relative to its segment's median): Henning et al.'s measure of variability, with a
   * bootstrap CI.
   */
  betweenRunCv: StatisticInterval | null;
  mde: MdePoint[];
  /** Median MDE of the last 7 runs, and of all. */
  mdeRecent: number | null;
  mdeOverall: number | null;
  /** A/A duets that called this benchmark changed, against the nominal rate 1 − level. */
  aaFalsePositives: { rate: ProportionInterval; nominal: number } | null;
  /** Runs whose A/A duet called this benchmark changed. */
  aaCalledChanged: string[];
}

/** The noise of one benchmark over the runs (see `Noise`). Pure. */
export function noiseOf(
  points: readonly SeriesPoint[],
  relative: readonly number[],
  settings: NoiseSettings,
): Noise {
  const cvs = points.map((p) => p.cv).filter((c): c is number => c !== null);
  const boot = { level: settings.level, resamples: settings.resamples, seed: settings.seed };
  const withinRunCv = cvs.length >= 2 ? bootstrapOneSample(cvs, 'median', boot) : null;
  const normalised = relative.map((r) => 1 + r);
  const betweenRunCv =
    normalised.length >= 3
      ? bootstrapOneSample(normalised, 'cv', { ...boot, seed: boot.seed + 1 })
      : null;
  const mde: MdePoint[] = [];
  for (const p of points) {
    const at = new Date(p.at).toISOString();
    if (p.aa !== null) {
      mde.push({
        runId: p.runId,
        at,
        mde: p.aa.mde,
        aaCiWidth: p.aa.ciWidth,
        level: p.aa.ci.level,
        source: 'aa',
      });
    } else if (p.cv !== null && p.n >= 2) {
      // an A/B comparison of this run against one like it (two samples of n)
      const m = minimumDetectableEffect(p.n, p.cv, { level: 0.99 });
      mde.push({ runId: p.runId, at, mde: m, aaCiWidth: null, level: 0.99, source: 'run-cv' });
    }
  }
  const aaRuns = points.filter((p) => p.aa !== null);
  const aaFalsePositives =
    aaRuns.length === 0
      ? null
      : {
          rate: wilsonInterval(
            aaRuns.filter((p) => p.aa!.calledChanged).length,
            aaRuns.length,
            0.95,
          ),
          nominal: 1 - aaRuns[0]!.aa!.ci.level,
        };
  return {
    withinRunCv,
    betweenRunCv,
    mde,
    mdeRecent: mde.length === 0 ? null : median(mde.slice(-7).map((m) => m.mde)),
    mdeOverall: mde.length === 0 ? null : median(mde.map((m) => m.mde)),
    aaFalsePositives,
    aaCalledChanged: aaRuns.filter((p) => p.aa!.calledChanged).map((p) => p.runId),
  };
}
