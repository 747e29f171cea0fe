import type { ProfileSide, ProfilerName } from '../../src/contracts/profile.js';
import type { Rng } from '../../src/stats/rng.js';

/** A stack of a synthetic program and its weight in the multinomial the samples come from. */
export interface WeightedStack {
  frames: string[];
  weight: number;
}

const MAIN = ['_start', '__libc_start_main', 'main', 'run_benchmark'];

/**
 * The quickstart's checksum program as perf would fold it (root first, frame pointers, a few
 * kernel and unknown frames): weights are shares of the samples.
 */
export const CHECKSUM_PROGRAM: readonly WeightedStack[] = [
  { frames: [...MAIN, 'checksum', 'checksum_loop'], weight: 0.38 },
  { frames: [...MAIN, 'checksum', 'checksum_loop', 'rotl32'], weight: 0.08 },
  { frames: [...MAIN, 'checksum', 'finalize'], weight: 0.03 },
  { frames: [...MAIN, 'parse_input', 'parse_line'], weight: 0.16 },
  { frames: [...MAIN, 'parse_input', 'parse_line', 'strtol'], weight: 0.07 },
  { frames: [...MAIN, 'parse_input', 'parse_line', '__memchr_avx2'], weight: 0.04 },
  { frames: [...MAIN, 'parse_input', 'read_file', '__memmove_avx_unaligned_erms'], weight: 0.05 },
  {
    frames: [...MAIN, 'parse_input', 'read_file', 'read', 'entry_SYSCALL_64', 'ksys_read'],
    weight: 0.03,
  },
  { frames: [...MAIN, 'hash_table_insert', 'hash_bytes'], weight: 0.06 },
  { frames: [...MAIN, 'hash_table_insert', 'malloc', '_int_malloc'], weight: 0.03 },
  { frames: [...MAIN, 'hash_table_insert'], weight: 0.02 },
  { frames: [...MAIN, 'report', 'printf', 'vfprintf'], weight: 0.01 },
  { frames: [...MAIN, 'free'], weight: 0.008 },
  { frames: [...MAIN, 'qsort', 'msort_with_tmp'], weight: 0.02 },
  { frames: [...MAIN, 'qsort', 'msort_with_tmp', 'msort_with_tmp', 'compare_u32'], weight: 0.012 },
  { frames: ['_start', '[unknown]'], weight: 0.004 },
  { frames: ['[unknown]'], weight: 0.002 },
  { frames: [...MAIN, 'run_benchmark', 'clock_gettime', '__vdso_clock_gettime'], weight: 0.001 },
];

/** The program with the stacks whose leaf is `leaf` made `factor` times as heavy. */
export function slowed(
  program: readonly WeightedStack[],
  leaf: string,
  factor: number,
): WeightedStack[] {
  return program.map((s) => ({
    frames: s.frames,
    weight: s.frames[s.frames.length - 1] === leaf ? s.weight * factor : s.weight,
  }));
}

export interface SyntheticSideOptions {
  version: string;
  chunks: number;
  samplesPerChunk: number;
  /** Work per chunk (iterations). Default 10. */
  work?: number;
  /**
   * Chunk-to-chunk variation: each chunk's weights are multiplied by exp(jitter · N(0, 1)),
   * as one process's layout differs from the next's. Default 0 (one multinomial).
   */
  jitter?: number;
  profiler?: ProfilerName;
}

/**
 * One side's profile drawn from the program's multinomial: `chunks` chunks of
 * `samplesPerChunk` samples each, folded as the profiling stage hands them over.
 */
export function syntheticSide(
  program: readonly WeightedStack[],
  rng: Rng,
  o: SyntheticSideOptions,
): ProfileSide {
  const chunks = [];
  for (let c = 0; c < o.chunks; c++) {
    const weights = program.map(
      (s) => s.weight * ((o.jitter ?? 0) > 0 ? Math.exp(o.jitter! * rng.nextNormal()) : 1),
    );
    const cumulative: number[] = [];
    let sum = 0;
    for (const w of weights) cumulative.push((sum += w));
    const counts = new Array<number>(program.length).fill(0);
    for (let i = 0; i < o.samplesPerChunk; i++) {
      const u = rng.nextFloat() * sum;
      let lo = 0;
      let hi = cumulative.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cumulative[mid]! > u) hi = mid;
        else lo = mid + 1;
      }
      counts[lo]!++;
    }
    chunks.push({
      stacks: program
        .map((s, i) => ({ frames: [...s.frames], count: counts[i]! }))
        .filter((s) => s.count > 0),
      work: o.work ?? 10,
    });
  }
  return {
    version: o.version,
    profiler: o.profiler ?? 'perf',
    workUnit: 'iteration',
    period: 1 / 999,
    chunks,
    files: [],
  };
}
