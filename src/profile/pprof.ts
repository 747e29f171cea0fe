import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Profile } from 'pprof-format';
import { StackCounter } from './fold.js';
import type { FoldedStack } from '../contracts/profile.js';
import type { ProfileJob, ProfilerRoute } from './types.js';

/** Go's CPU profiler samples at 100 Hz; `-test.cpuprofile` has no flag to change it. */
const GO_PERIOD_S = 0.01;

/**
 * Go's own pprof: `go test … -cpuprofile` (the test binary kept in the scratch directory, not
 * in the user's tree), or `-test.cpuprofile` on a built test binary (`*.test`). The profile is
 * read with `pprof-format`; the raw `.pprof` is what `go tool pprof` opens.
 */
export const pprof: ProfilerRoute = {
  name: 'pprof',
  workUnit: 'op',
  period: () => GO_PERIOD_S,
  ready: async () => ({ problem: null, notes: [] }),
  wrap(job) {
    const file = profileFile(job);
    const argv = [...job.argv];
    const extra = isGoTest(argv)
      ? [`-cpuprofile=${file}`, `-o=${path.join(job.scratch, `${job.stem}.test`)}`]
      : isTestBinary(argv)
        ? [`-test.cpuprofile=${file}`]
        : null;
    if (extra === null) {
      throw new Error(
        `pprof profiles "go test" commands and Go test binaries (*.test), not "${argv.join(' ')}": use profile.profiler perf`,
      );
    }
    // Flags after -args belong to the benchmark, not to go test.
    const at = argv.indexOf('-args');
    argv.splice(at < 0 ? argv.length : at, 0, ...extra);
    return { argv, env: job.env };
  },
  async read(job) {
    const file = profileFile(job);
    return { stacks: foldPprof(await readFile(file)), files: [file] };
  },
};

function profileFile(job: ProfileJob): string {
  return path.join(job.dir, `${job.stem}.pprof`);
}

export function isGoTest(argv: readonly string[]): boolean {
  return path.basename(argv[0] ?? '') === 'go' && argv[1] === 'test';
}

export function isTestBinary(argv: readonly string[]): boolean {
  return /\.test$/.test(argv[0] ?? '');
}

/**
 * A pprof profile (gzipped protobuf, as Go writes it) folded by function: a sample's
 * locations are leaf first, and a location's lines innermost first (inlined calls), so the
 * stack is their concatenation reversed. Counts are the `samples` value.
 */
export function foldPprof(raw: Uint8Array): FoldedStack[] {
  const bytes = raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw;
  const profile = Profile.decode(bytes);
  const strings = profile.stringTable.strings;
  const index = profile.sampleType.findIndex((t) => strings[Number(t.type)] === 'samples');
  const functions = new Map(profile.function.map((f) => [Number(f.id), strings[Number(f.name)]]));
  const locations = new Map(
    profile.location.map((l) => [
      Number(l.id),
      l.line.length === 0
        ? ['[unknown]']
        : l.line.map((line) => functions.get(Number(line.functionId)) || '[unknown]'),
    ]),
  );
  const counter = new StackCounter();
  for (const sample of profile.sample) {
    const leafFirst = sample.locationId.flatMap((id) => locations.get(Number(id)) ?? ['[unknown]']);
    counter.add(leafFirst.reverse(), Number(sample.value[Math.max(index, 0)] ?? 1));
  }
  return counter.stacks();
}
