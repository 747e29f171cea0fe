import { referenceSource } from '../../src/calibrate/record.js';
import { traceFromSamples } from '../../src/calibrate/trace.js';
import type { IsolationRequest } from '../../src/contracts/isolation.js';
import { spawnNoise, type NoiseProcess } from '../../src/noise/spawn.js';
import { compare } from '../../src/stats/compare.js';
import { mean, median, standardDeviation } from '../../src/stats/descriptive.js';

export interface DiagnosisOptions {
  seconds: number;
  /** Pairs per window for the CI widths. */
  windowPairs: number;
  /** Threads of `duetkit noise` (0: quiet). */
  noiseThreads: number;
  noiseLoad: number;
  cpuWeight: boolean;
  isolation: IsolationRequest;
  /** Chunks of the reference workload per iteration. Default 1000. */
  units?: number;
  signal: AbortSignal;
}

/** What one duet A/A recording shows about its pairs. Plain JSON. */
export interface Diagnosis {
  condition: string;
  isolation: string;
  pairs: number;
  medianMs: { base: number; head: number };
  sdLogRatio: number;
  correlationOfSides: number;
  slowShare: { base: number; head: number; both: number };
  medianLogRatioBySlot: (number | null)[];
  windows: number;
  medianCiWidth: { median: number; gmean: number };
  calledChanged: { median: number; gmean: number };
}

/** Records one duet A/A of the reference workload and takes its pairs apart. */
export async function runDiagnosis(options: DiagnosisOptions): Promise<Diagnosis> {
  const { seconds, windowPairs, noiseThreads, noiseLoad, cpuWeight, isolation } = options;
  const units = options.units ?? 1000;
  const source = await referenceSource([
    { name: 'base', units },
    { name: 'aa', units },
  ]);
  let noise: NoiseProcess | null = null;
  try {
    if (noiseThreads > 0) {
      noise = await spawnNoise({
        threads: noiseThreads,
        load: noiseLoad,
        kind: 'cpu',
        durationSeconds: seconds + 60,
      });
    }
    const samples = await source.record(
      { mode: 'duet', isolation, budgetSeconds: seconds, seed: 11, cpuWeight },
      options.signal,
      process.env,
    );
    const trace = traceFromSamples(samples);
    const slotOf = new Map(
      samples.trials.filter((t) => t.version === 0).map((t) => [t.round, t.slot]),
    );
    const b = trace.rounds.map((r) => r.values[0]!);
    const h = trace.rounds.map((r) => r.values[1]!);
    const d = b.map((x, i) => Math.log(h[i]! / x));
    const medianMs = { base: median(b), head: median(h) };
    const slowB = b.map((x) => x > 1.1 * medianMs.base);
    const slowH = h.map((x) => x > 1.1 * medianMs.head);
    const share = (xs: boolean[]) => xs.filter(Boolean).length / xs.length;
    const lb = b.map(Math.log);
    const lh = h.map(Math.log);
    const meanB = mean(lb);
    const meanH = mean(lh);
    const cov = mean(lb.map((x, i) => (x - meanB) * (lh[i]! - meanH)));
    const bySlot = [0, 1].map((slot) => {
      const xs = d.filter((_, i) => slotOf.get(trace.rounds[i]!.round) === slot);
      return xs.length === 0 ? null : median(xs);
    });
    const widths = { median: [] as number[], gmean: [] as number[] };
    const called = { median: 0, gmean: 0 };
    for (let from = 0; from + windowPairs <= b.length; from += windowPairs) {
      for (const statistic of ['median', 'gmean'] as const) {
        const c = compare(b.slice(from, from + windowPairs), h.slice(from, from + windowPairs), {
          paired: true,
          statistic,
          seed: from + 1,
          threshold: 0,
        });
        widths[statistic].push(c.ci.upper - c.ci.lower);
        if (c.ci.lower > 0 || c.ci.upper < 0) called[statistic]++;
      }
    }
    const result: Diagnosis = {
      condition: noiseThreads > 0 ? `noise ${noiseThreads}×${noiseLoad}` : 'quiet',
      isolation: `${samples.isolation.kind}${samples.isolation.cpuWeight === undefined ? '' : ` (${samples.isolation.cpuWeight})`}`,
      pairs: b.length,
      medianMs,
      sdLogRatio: standardDeviation(d),
      correlationOfSides: cov / (standardDeviation(lb) * standardDeviation(lh)),
      slowShare: {
        base: share(slowB),
        head: share(slowH),
        both: share(slowB.map((x, i) => x && slowH[i]!)),
      },
      medianLogRatioBySlot: bySlot,
      windows: widths.median.length,
      medianCiWidth: { median: median(widths.median), gmean: median(widths.gmean) },
      calledChanged: called,
    };
    return result;
  } finally {
    await noise?.stop();
    await source.dispose();
  }
}

/** The diagnosis as the lines the script prints. */
export function renderDiagnosis(result: Diagnosis, seconds: number, windowPairs: number): string {
  const pct = (x: number) => `${(x * 100).toFixed(2)}%`;
  const bySlot = result.medianLogRatioBySlot;
  const called = result.calledChanged;
  return [
    `condition ${result.condition}, isolation ${result.isolation}, ${result.pairs} pairs in ${seconds} s`,
    `median iteration: base ${result.medianMs.base.toFixed(3)} ms, head ${result.medianMs.head.toFixed(3)} ms`,
    `log pair ratio: SD ${result.sdLogRatio.toFixed(4)}; correlation of the sides' log times ${result.correlationOfSides.toFixed(3)}`,
    `> 10% slower than the median: base ${pct(result.slowShare.base)}, head ${pct(result.slowShare.head)}, both at once ${pct(result.slowShare.both)}`,
    `median log ratio with base on CPU set 0 / 1: ${bySlot.map((x) => (x === null ? '–' : x.toFixed(4))).join(' / ')}`,
    `${result.windows} windows of ${windowPairs} pairs: median 99% CI width ${pct(result.medianCiWidth.median)} (median ratio) vs ${pct(result.medianCiWidth.gmean)} (geometric mean); called changed ${called.median} vs ${called.gmean}`,
  ].join('\n');
}
