import { median } from '../stats/descriptive.js';
import type { BenchmarkSeries } from './series.js';

/** The numbers handed to `compare` for one benchmark and one pair of versions. */
export interface ComparisonInput {
  base: number[];
  head: number[];
  paired: boolean;
  /** Rounds used as blocks (paired) — lets a reader match pairs back to trials. */
  rounds: number[] | null;
}

/**
 * Paired designs (duet iterations, RMIT rounds): one pair per round in which both versions
 * produced the benchmark, in round order; a trial that reported several values counts with
 * their median, because the round, not the value, is the unit of replication.
 * Unpaired designs (mit, mct, single): every value of each version.
 */
export function comparisonInput(
  series: BenchmarkSeries,
  baseIndex: number,
  headIndex: number,
  paired: boolean,
): ComparisonInput {
  const base = series.byVersion[baseIndex]!;
  const head = series.byVersion[headIndex]!;
  if (!paired) {
    return {
      base: [...base.values()].flat(),
      head: [...head.values()].flat(),
      paired,
      rounds: null,
    };
  }
  const rounds = [...base.keys()].filter((round) => head.has(round)).sort((a, b) => a - b);
  return {
    base: rounds.map((round) => median(base.get(round)!)),
    head: rounds.map((round) => median(head.get(round)!)),
    paired,
    rounds,
  };
}
