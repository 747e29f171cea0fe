import type { BenchmarkSeries } from './series.js';
import { trialValue } from './trial-value.js';

/** The numbers handed to `compare` for one benchmark and one pair of versions. */
export interface ComparisonInput {
  base: number[];
  head: number[];
  paired: boolean;
  /** Rounds used as blocks (paired) — lets a reader match pairs back to trials. */
  rounds: number[] | null;
  /** Positional rounds: the repetitions each entry stands for (absent: one each). */
  weights?: number[];
}

/**
 * Paired designs (duet iterations, RMIT rounds): one pair per round in which both versions
 * produced the benchmark, in round order; a trial that reported several values counts with
 * one of them (trialValue: their median, or the fastest where they are timed parts of the
 * process's work), because the round, not the value, is the unit of replication. That holds for
 * positional values too (repetitions of the same work in processes started together, the k-th
 * of each side matched): the pairs of one round share its processes and its CPUs, and on a
 * VM whose CPUs differ while both run, that shared part was 12–14% where the pairs' own
 * scatter was a few percent — counted as independent pairs, an A/A of 131 criterion
 * benchmarks called 18 changed. So a positional round is one pair too, the trial values of
 * its position-matched values, and `weights` says how many pairs it stands for (the looks count
 * pairs: `truncateToLook`).
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
    // one pair per round: the trial values of the position-matched values, weighted by their count
    const pairs = { base: [] as number[], head: [] as number[], weights: [] as number[] };
    for (const round of rounds) {
      const b = base.get(round)!;
      const h = head.get(round)!;
      const m = Math.min(b.length, h.length);
      pairs.base.push(trialValue(b.slice(0, m), series));
      pairs.head.push(trialValue(h.slice(0, m), series));
      pairs.weights.push(m);
    }
    return { ...pairs, paired, rounds };
  }
  return {
    base: rounds.map((round) => trialValue(base.get(round)!, series)),
    head: rounds.map((round) => trialValue(head.get(round)!, series)),
    paired,
    rounds,
  };
}
