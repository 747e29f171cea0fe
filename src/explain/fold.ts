import type { ProfileSide } from '../contracts/profile.js';

/** One chunk of a side, folded per function. */
export interface FoldedChunk {
  samples: number;
  /** The work the chunk did (the side's: every chunk's together). */
  work: number;
  /** Samples where the function is the leaf. */
  self: Map<string, number>;
  /** Samples where the function is anywhere on the stack, once per sample (recursion too). */
  total: Map<string, number>;
}

/** A side's profile folded per function: its chunks, and every chunk together. */
export interface FoldedSide extends FoldedChunk {
  chunks: FoldedChunk[];
}

/**
 * Folds a side's stacks per function (self and total samples), chunk by chunk, checking the
 * contract's shape on the way: `where` names the side in errors (`head`), which name the field,
 * the value and what is accepted. Cost O(frames).
 */
export function foldSide(side: ProfileSide, where: string): FoldedSide {
  if (!Array.isArray(side.chunks)) {
    throw new TypeError(`${where}.chunks: ${JSON.stringify(side.chunks)}; expected an array`);
  }
  const all: FoldedSide = { samples: 0, work: 0, self: new Map(), total: new Map(), chunks: [] };
  side.chunks.forEach((chunk, c) => {
    const at = `${where}.chunks[${c}]`;
    if (!(typeof chunk.work === 'number' && Number.isFinite(chunk.work) && chunk.work >= 0)) {
      throw new RangeError(`${at}.work: ${JSON.stringify(chunk.work)}; expected a number ≥ 0`);
    }
    if (!Array.isArray(chunk.stacks)) {
      throw new TypeError(`${at}.stacks: ${JSON.stringify(chunk.stacks)}; expected an array`);
    }
    const folded: FoldedChunk = { samples: 0, work: chunk.work, self: new Map(), total: new Map() };
    chunk.stacks.forEach((stack, s) => {
      const count = stack.count;
      if (!(Number.isInteger(count) && count >= 0)) {
        throw new RangeError(
          `${at}.stacks[${s}].count: ${JSON.stringify(count)}; expected an integer ≥ 0`,
        );
      }
      const frames = stack.frames;
      if (
        !Array.isArray(frames) ||
        frames.length === 0 ||
        frames.some((f) => typeof f !== 'string')
      ) {
        throw new TypeError(
          `${at}.stacks[${s}].frames: ${JSON.stringify(frames)}; expected a non-empty array of frame names, root first`,
        );
      }
      if (count === 0) return;
      folded.samples += count;
      add(folded.self, frames[frames.length - 1]!, count);
      for (const name of new Set(frames)) add(folded.total, name, count);
    });
    all.samples += folded.samples;
    all.work += chunk.work;
    for (const [name, n] of folded.self) add(all.self, name, n);
    for (const [name, n] of folded.total) add(all.total, name, n);
    all.chunks.push(folded);
  });
  return all;
}

function add(map: Map<string, number>, name: string, n: number): void {
  map.set(name, (map.get(name) ?? 0) + n);
}
