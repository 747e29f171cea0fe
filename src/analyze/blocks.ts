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
 * their median, because the round, not the value, is the unit of replication — unless the
 * values are positional (repetitions of the same work in processes started together): then
 * the k-th values of a round form its k-th pair, as many pairs as both sides have values
 * (`rounds` repeats the round for each). Consecutive pairs of one round share a process
 * start; the interval's automatic block length is what accounts for that.
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
  if (series.positional) {
    const pairs: { base: number[]; head: number[]; rounds: number[] } = {
      base: [],
      head: [],
      rounds: [],
    };
    for (const round of rounds) {
      const b = base.get(round)!;
      const h = head.get(round)!;
      for (let k = 0; k < Math.min(b.length, h.length); k++) {
        pairs.base.push(b[k]!);
        pairs.head.push(h[k]!);
        pairs.rounds.push(round);
      }
    }
    return { ...pairs, paired };
  }
  return {
    base: rounds.map((round) => median(base.get(round)!)),
    head: rounds.map((round) => median(head.get(round)!)),
    paired,
    rounds,
  };
}
