import { z } from 'zod';
import { duration } from '../scenario/fields.js';

const PARTS_ERROR = '"auto" or a whole number of parts from 1 to 100';

/** Pairs per benchmark at the first look (the screening), unless `suite.firstLook` says. */
export const FIRST_LOOK_PAIRS = 20;

/**
 * The `suite:` field of a scenario: how a per-benchmark suite shares one budget
 * (docs/suites.md). Defaults in the field comments; every default is also in the docs.
 */
export const suiteSchema = z
  .object({
    /**
     * `adaptive` (default): after the first look, time goes to the benchmarks whose interval
     * still straddles the threshold; `equal`: every benchmark runs to every look.
     */
    allocation: z.enum(['adaptive', 'equal']).default('adaptive'),
    /** Pairs per benchmark at the first look. Default 20. */
    firstLook: z.number().int().min(5).max(100_000).default(FIRST_LOOK_PAIRS),
    /** Each further look has this many times the pairs of the one before. Default 3. */
    growth: z.number().gt(1).max(10).default(3),
    /** Scheduled looks per benchmark. Default 4 (20, 60, 180, 540 pairs). */
    looks: z.number().int().min(1).max(20).default(4),
    /**
     * `auto` (default): build each version's benchmark binary once where the format can
     * (`go`: `go test -c`) and run it per iteration; `never`: run the command as written.
     */
    build: z.enum(['auto', 'never']).default('auto'),
    /**
     * With a prebuilt Go binary: `fixed` (default) measures each benchmark's time per
     * operation once and runs every iteration with the same fixed count (`-benchtime Nx`);
     * `tool` lets go test find b.N anew in every run.
     */
    calibration: z.enum(['fixed', 'tool']).default('fixed'),
    /** With `calibration: fixed`: the time one iteration's measured work should take. Default 20 ms. */
    iterationTime: duration.default(0.02),
    /**
     * Repetitions of a benchmark in one process, paired by position where the format can (go
     * with `calibration: fixed`, criterion's sample list): 1 (default) runs one repetition per
     * process, so every pair is independent; `auto` sizes them from the measured start-up cost
     * (about 85% of the machine time measuring); a number fixes them. Pairs of one process
     * share what its start drew: on a machine where that is a large share of the noise, `auto`
     * gave false calls in A/A runs (BENCHMARKS.md, "Large suites"), so it is not the default.
     */
    repetitions: z
      .union([z.literal('auto'), z.number().int().min(1).max(1000)], {
        error: '"auto" or a whole number of repetitions from 1 to 1000',
      })
      .default(1),
    /**
     * Go with `calibration: fixed`: a process's measured work (`iterationTime`) run as this
     * many timed parts (`-test.count`, each `-benchtime (N/parts)x`), so that `within` has
     * several values to choose from at the cost of one process. `auto` (default): as many as
     * give every part at least MIN_OPS_PER_PART operations (the extra b.N = 1 run go test
     * makes before each part then costs at most a twentieth of it), at most MAX_PARTS;
     * 1 for a benchmark too slow for that. With `repetitions` above 1, `auto` means 1.
     */
    parts: z
      .union(
        [z.literal('auto'), z.number().int(PARTS_ERROR).min(1, PARTS_ERROR).max(100, PARTS_ERROR)],
        {
          error: PARTS_ERROR,
        },
      )
      .default('auto'),
    /**
     * How a process's several timed values (Go's parts, criterion's samples,
     * pytest-benchmark's rounds) become its one value in the pair: `fastest` (default), the
     * fastest of them (least time, most throughput) — a shared machine only ever slows a
     * part down, so the fastest part is the one least touched by it; `median`, their median.
     * Counts (allocs/op, B/op) are never reduced this way (docs/suites.md).
     */
    within: z.enum(['fastest', 'median']).default('fastest'),
    /**
     * `finest` (default): every sub-benchmark the calibration run prints is a benchmark of
     * its own (run alone, judged alone); `listed`: the names the tool lists; `group`: every
     * stage runs its benchmarks together in one process per iteration (pytest: one start-up
     * for all; go: siblings of like cost, prepare-go.ts `goGroupClasses`), each still judged
     * alone.
     */
    granularity: z.enum(['finest', 'listed', 'group']).default('finest'),
  })
  .strict()
  .superRefine((s, ctx) => {
    if (typeof s.parts === 'number' && s.parts > 1 && s.repetitions !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['parts'],
        message: `parts (${s.parts}) or repetitions (${String(s.repetitions)}), not both: parts split one repetition's work, repetitions repeat it whole`,
      });
    }
  });

/** Fewest operations one of Go's timed parts runs (`suite.parts: auto`). */
export const MIN_OPS_PER_PART = 20;
/** Most timed parts `suite.parts: auto` splits a process's work into. */
export const MAX_PARTS = 10;

export type SuiteSpec = z.output<typeof suiteSchema>;
