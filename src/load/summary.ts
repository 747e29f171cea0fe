import { ERROR_KINDS, type ErrorKind, type LoadSummary } from '../contracts/load.js';
import type { SamplesFile } from '../contracts/samples.js';
import { mergedPercentile } from './histogram.js';

/** The load summary of a samples file, or undefined when it has no load records. */
export function summarizeLoad(samples: SamplesFile): LoadSummary | undefined {
  const measured = samples.trials.filter((t) => !t.warmup && t.load !== undefined);
  if (measured.length === 0) return undefined;
  const invalid = new Map<number, string>();
  for (const t of measured) if (t.invalid !== undefined) invalid.set(t.round, t.invalid);
  const versions = samples.versions.flatMap((v, index) => {
    const mine = measured.filter((t) => t.version === index);
    if (mine.length === 0) return [];
    const valid = mine.filter((t) => t.invalid === undefined);
    const loads = valid.map((t) => t.load!);
    const errors = Object.fromEntries(ERROR_KINDS.map((k) => [k, 0])) as Record<ErrorKind, number>;
    const statusCodes: Record<string, number> = {};
    for (const t of mine) {
      for (const k of ERROR_KINDS) errors[k] += t.load!.errors[k];
      for (const [code, n] of Object.entries(t.load!.statusCodes)) {
        statusCodes[code] = (statusCodes[code] ?? 0) + n;
      }
    }
    const lags = loads.flatMap((l) => (l.sendLagMs === null ? [] : [l.sendLagMs.p99]));
    return [
      {
        version: v.name,
        iterations: valid.length,
        intendedQps: middle(loads.map((l) => l.intendedQps)),
        achievedQps: middle(loads.map((l) => l.achievedQps)),
        sent: mine.reduce((sum, t) => sum + t.load!.sent, 0),
        errors,
        statusCodes,
        sendLagP99Ms: lags.length === 0 ? null : Math.max(...lags),
        pooledP99Ms: mergedPercentile(
          loads.map((l) => l.histogram),
          99,
        ),
      },
    ];
  });
  return {
    arrival: measured[0]!.load!.arrival,
    generator: measured[0]!.load!.generator.description,
    versions,
    invalid: [...invalid].map(([round, reason]) => ({ round, reason })),
  };
}

function middle(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
}
