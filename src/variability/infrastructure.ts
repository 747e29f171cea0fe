import { adjustPValues } from '../stats/adjust.js';
import { median } from '../stats/descriptive.js';
import { ksTwoSample } from '../stats/ks.js';
import { createRng } from '../stats/rng.js';
import type { InfraIdentity, SeriesPoint } from './series.js';

export type InfraDimension = 'image' | 'cpuModel' | 'cluster';

export interface InfraGroup {
  label: string;
  n: number;
  /** Median, min and max of the values relative to their segment's median. */
  median: number;
  min: number;
  max: number;
}

export interface InfraComparison {
  dimension: InfraDimension;
  groups: InfraGroup[];
  /** Two-sample KS p-values between groups (Holm-adjusted), indexed like `groups`. */
  ks: (number | null)[][];
  summary: string;
}

export interface ReuseComparison {
  /** Sets of `size` runs on one machine vs sets drawn across machines. */
  size: number;
  reusedSets: number;
  /** Median min–max range (relative) of the sets on one machine and across machines. */
  reusedRange: number;
  reprovisionedRange: number;
  /** KS test of the two distributions of ranges (Henning et al. §5.5). */
  ks: { statistic: number; pValue: number };
  summary: string;
}

export interface Infrastructure {
  comparisons: InfraComparison[];
  reuse: ReuseComparison | null;
  notes: string[];
}

const LABELS: Record<InfraDimension, string> = {
  image: 'runner image',
  cpuModel: 'CPU model',
  cluster: 'cluster',
};

/**
 * Do runs on different infrastructure differ? For each identity with ≥ 2 values among the
 * runs (runner image and version, CPU model, cluster): per group the min–max range, and
 * pairwise two-sample KS tests (Holm). Reuse vs re-provision (Henning et al. §5.5): min–max
 * ranges of sets of 3 runs on one machine against sets of 3 runs on 3 different machines,
 * compared by a KS test. Pure.
 */
export function infrastructureOf(
  points: readonly SeriesPoint[],
  relative: readonly number[],
  seed: number,
): Infrastructure {
  const comparisons: InfraComparison[] = [];
  const notes: string[] = [];
  for (const dimension of ['image', 'cpuModel', 'cluster'] as const) {
    const byLabel = new Map<string, number[]>();
    points.forEach((p, i) => {
      const label = (p.infra as InfraIdentity)[dimension];
      if (label === null) return;
      byLabel.set(label, [...(byLabel.get(label) ?? []), relative[i]!]);
    });
    if (byLabel.size < 2) continue;
    const labels = [...byLabel.keys()].sort();
    const groups = labels.map((label) => {
      const v = byLabel.get(label)!;
      return { label, n: v.length, median: median(v), min: Math.min(...v), max: Math.max(...v) };
    });
    const pairs: [number, number][] = [];
    for (let i = 0; i < labels.length; i++)
      for (let j = i + 1; j < labels.length; j++) pairs.push([i, j]);
    const raw = pairs.map(
      ([i, j]) => ksTwoSample(byLabel.get(labels[i]!)!, byLabel.get(labels[j]!)!).pValue,
    );
    const adjusted = adjustPValues(raw, 'holm');
    const ks = labels.map(() => labels.map((): number | null => null));
    pairs.forEach(([i, j], k) => {
      ks[i]![j] = adjusted[k]!;
      ks[j]![i] = adjusted[k]!;
    });
    const least = Math.min(...adjusted);
    comparisons.push({
      dimension,
      groups,
      ks,
      summary:
        least < 0.05
          ? `runs differ by ${LABELS[dimension]} (smallest Holm-adjusted KS p = ${least.toPrecision(2)})`
          : `no difference by ${LABELS[dimension]} found (${labels.length} groups, smallest adjusted KS p = ${least.toPrecision(2)})`,
    });
  }
  return { comparisons, reuse: reuseOf(points, relative, seed, notes), notes };
}

function reuseOf(
  points: readonly SeriesPoint[],
  relative: readonly number[],
  seed: number,
  notes: string[],
): ReuseComparison | null {
  const size = 3;
  const byInstance = new Map<string, number[]>();
  points.forEach((p, i) => {
    if (p.infra.instance !== null) {
      byInstance.set(p.infra.instance, [...(byInstance.get(p.infra.instance) ?? []), relative[i]!]);
    }
  });
  const range = (xs: readonly number[]) => Math.max(...xs) - Math.min(...xs);
  const reused: number[] = [];
  for (const values of byInstance.values()) {
    for (let s = 0; s + size <= values.length; s += size)
      reused.push(range(values.slice(s, s + size)));
  }
  const instances = [...byInstance.values()];
  if (reused.length < 5 || instances.length < size) {
    notes.push(
      byInstance.size === 0
        ? 'no machine identity recorded: reuse vs re-provision cannot be compared'
        : `reuse vs re-provision needs at least 5 sets of ${size} runs on one machine and ${size} machines (${byInstance.size} machines, ${reused.length} sets)`,
    );
    return null;
  }
  const rng = createRng(seed);
  const across: number[] = [];
  for (let s = 0; s < reused.length * 10; s++) {
    const chosen = new Set<number>();
    while (chosen.size < size) chosen.add(rng.nextIndex(instances.length));
    across.push(range([...chosen].map((m) => instances[m]![rng.nextIndex(instances[m]!.length)]!)));
  }
  const ks = ksTwoSample(reused, across);
  const reusedRange = median(reused);
  const reprovisionedRange = median(across);
  const pct = (x: number) => `${(x * 100).toFixed(2)}%`;
  return {
    size,
    reusedSets: reused.length,
    reusedRange,
    reprovisionedRange,
    ks: { statistic: ks.statistic, pValue: ks.pValue },
    summary: `${size} runs on one machine span ${pct(reusedRange)} (median), on ${size} machines ${pct(reprovisionedRange)}; KS p = ${ks.pValue.toPrecision(2)}${ks.pValue < 0.05 ? ': re-provisioning changes the spread' : ': no difference found'}`,
  };
}
