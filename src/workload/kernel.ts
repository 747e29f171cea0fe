/**
 * duetkit's reference workload: a deterministic CPU-bound kernel whose amount of work is a
 * number of identical chunks, so that a slowdown of +1% can be injected as 1% more chunks
 * (more work, not a multiplied number). Each chunk runs CHUNK_STEPS steps of a 32-bit linear
 * congruential generator (Numerical Recipes' constants) feeding an integer mix and a
 * floating-point accumulation; the state carries over from chunk to chunk, so the JIT cannot
 * drop or reorder any of it. No allocation, no I/O, no branches that depend on the data.
 */

/** LCG steps per chunk: about 17 µs on the 2-CPU development VM (see benchmarks/workload-ground-truth.ts). */
export const CHUNK_STEPS = 4096;

/** What a kernel run did: the steps actually executed and a checksum of the final state. */
export interface KernelResult {
  units: number;
  steps: number;
  checksum: number;
}

/**
 * Runs `units` chunks from a fixed seed. The same `units` always gives the same checksum, and
 * `steps` counts the loop iterations executed (= units · CHUNK_STEPS), so tests can check that
 * the work really scales with the parameter. Cost O(units · CHUNK_STEPS).
 */
export function runKernel(units: number): KernelResult {
  checkUnits(units, 'units');
  let state = 0x2545f491;
  let mix = 0;
  let acc = 0;
  let steps = 0;
  for (let unit = 0; unit < units; unit++) {
    for (let i = 0; i < CHUNK_STEPS; i++) {
      state = (Math.imul(state, 1664525) + 1013904223) | 0;
      // Kept in int32 (| 0): a sum that overflowed into a double would change the compiled
      // loop in some processes and not others, making identical versions differ by 2×.
      mix = ((mix ^ (state >>> 7)) + (mix << 3)) | 0;
      acc = acc * 0.999 + (state & 0xffff) * 1.5e-5;
      steps++;
    }
  }
  return { units, steps, checksum: (mix ^ Math.floor(acc * 1e6)) >>> 0 };
}

/** Units must be a positive safe integer; the message names the option. */
export function checkUnits(units: number, option: string): number {
  if (!(Number.isSafeInteger(units) && units >= 1)) {
    throw new RangeError(`${option} must be a positive integer number of chunks, got ${units}`);
  }
  return units;
}

/** The units of a workload `change` larger: W·(1 + δ), rounded to whole chunks. */
export function injectedUnits(units: number, change: number): number {
  checkUnits(units, 'units');
  if (!(change > -1 && Number.isFinite(change))) {
    throw new RangeError(`change must be a fraction above -1 (0.01 = +1%), got ${change}`);
  }
  return Math.max(1, Math.round(units * (1 + change)));
}
