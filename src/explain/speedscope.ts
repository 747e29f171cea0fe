import type { ProfileSide } from '../contracts/profile.js';

/**
 * One side's profile as a speedscope file (https://www.speedscope.app/file-format-schema.json):
 * one `sampled` profile of the side's stacks, every chunk together, weighted in seconds when the
 * sampling period is known and in samples otherwise. speedscope opens it (drag it onto
 * speedscope.app or `npx speedscope file`), as does the Firefox Profiler's importer. Pure.
 */
export function toSpeedscope(side: ProfileSide, name: string): object {
  const index = new Map<string, number>();
  const frames: { name: string }[] = [];
  const samples: number[][] = [];
  const weights: number[] = [];
  const scale = side.period ?? 1;
  for (const chunk of side.chunks) {
    for (const stack of chunk.stacks) {
      if (stack.count === 0) continue;
      samples.push(
        stack.frames.map((f) => {
          let i = index.get(f);
          if (i === undefined) {
            i = frames.length;
            index.set(f, i);
            frames.push({ name: f });
          }
          return i;
        }),
      );
      weights.push(stack.count * scale);
    }
  }
  const end = weights.reduce((a, b) => a + b, 0);
  return {
    $schema: 'https://www.speedscope.app/file-format-schema.json',
    shared: { frames },
    profiles: [
      {
        type: 'sampled',
        name,
        unit: side.period === null ? 'none' : 'seconds',
        startValue: 0,
        endValue: end,
        samples,
        weights,
      },
    ],
    name,
    activeProfileIndex: 0,
    exporter: `duetkit (${side.profiler})`,
  };
}
