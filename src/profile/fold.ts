import type { FoldedStack } from '../contracts/profile.js';

/**
 * Stacks counted by their frames: `add` the same stack twice and it is one `FoldedStack` with
 * the counts summed. Frames are root first, as the contract has them.
 */
export class StackCounter {
  readonly #counts = new Map<string, FoldedStack>();

  add(frames: readonly string[], count = 1): void {
    if (frames.length === 0 || count <= 0) return;
    // A separator no symbol contains.
    const key = frames.join('\u0000');
    const known = this.#counts.get(key);
    if (known === undefined) this.#counts.set(key, { frames: [...frames], count });
    else known.count += count;
  }

  stacks(): FoldedStack[] {
    return [...this.#counts.values()].sort((a, b) => b.count - a.count);
  }
}

/**
 * Brendan Gregg's folded format, as `py-spy record --format raw` writes it: one stack per
 * line, frames root first joined by `;`, then a space and the count.
 */
export function parseFoldedText(
  text: string,
  rename: (frame: string) => string | null = (f) => f,
): FoldedStack[] {
  const counter = new StackCounter();
  for (const line of text.split('\n')) {
    const m = /^(.*) (\d+)$/.exec(line.trimEnd());
    if (m === null) continue;
    const frames = m[1]!
      .split(';')
      .map(rename)
      .filter((f): f is string => f !== null);
    counter.add(frames, Number(m[2]));
  }
  return counter.stacks();
}

/** The samples in `stacks`. */
export function sampleCount(stacks: readonly FoldedStack[]): number {
  return stacks.reduce((sum, s) => sum + s.count, 0);
}
