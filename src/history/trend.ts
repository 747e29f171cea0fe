import type { HistoryEntry } from './schema.js';

const BLOCKS = '▁▂▃▄▅▆▇█';

/**
 * A text sparkline: one block per value, from ▁ (the smallest) to █ (the largest); `·` where
 * a run has no value. Flat series are all ▄. Pure.
 */
export function sparkText(values: readonly (number | null)[]): string {
  const known = values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (known.length === 0) return '';
  const min = Math.min(...known);
  const max = Math.max(...known);
  return values
    .map((v) => {
      if (v === null || !Number.isFinite(v)) return '·';
      if (max === min) return BLOCKS[3];
      return BLOCKS[Math.min(7, Math.floor(((v - min) / (max - min)) * 8))];
    })
    .join('');
}

/** The trend of each benchmark over a suite's newest runs: its sparkline and the range it spans. */
export interface Trend {
  spark: string;
  runs: number;
  /** (max − min) / median of the values shown, as a fraction. */
  spread: number;
}

/**
 * Per benchmark name, main's recent trend from the newest `count` entries (oldest first), for
 * the PR comment: how the benchmark moved lately, beside what this PR changes. Pure.
 */
export function recentTrends(entries: readonly HistoryEntry[], count = 20): Map<string, Trend> {
  const newest = entries.slice(-count);
  const names = new Set(newest.flatMap((e) => e.benchmarks.map((b) => b.name)));
  const trends = new Map<string, Trend>();
  for (const name of names) {
    const values = newest.map((e) => e.benchmarks.find((b) => b.name === name)?.value ?? null);
    const first = values.findIndex((v) => v !== null);
    const shown = values.slice(first);
    const known = shown.filter((v): v is number => v !== null).sort((a, b) => a - b);
    const median = known[Math.floor(known.length / 2)]!;
    trends.set(name, {
      spark: sparkText(shown),
      runs: known.length,
      spread: median === 0 ? 0 : (known.at(-1)! - known[0]!) / Math.abs(median),
    });
  }
  return trends;
}
