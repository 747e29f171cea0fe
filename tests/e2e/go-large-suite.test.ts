import { execFileSync } from 'node:child_process';
import { chmod, cp, mkdtemp, readdir, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MIN_PAIRS_TO_CALL } from '../../src/stats/sequential.js';
import { MIN_SCREENING_PAIRS } from '../../src/suite/allocation.js';
import { removeDir, requireTool, runE2e } from './helpers.js';

/**
 * A real third-party suite of 100 benchmarks (valyala/fastjson v1.6.10's own, counting
 * sub-benchmarks, 10 ns to ~100 ms per op, every one with -benchmem) as an A/A under one small
 * budget: the schedule gives every benchmark its screening before any gets more, nothing is
 * left unmeasured for lack of time, nothing is an error, and the allocation counts are compared
 * exactly (never as timing rows, never as tests in the family). .ci/setup-formats.sh downloads
 * the module through the Go module proxy into Go's module cache.
 */
const MODULE = 'github.com/valyala/fastjson@v1.6.10';

async function writableCopy(from: string, to: string): Promise<void> {
  await cp(from, to, { recursive: true });
  const walk = async (dir: string): Promise<void> => {
    await chmod(dir, 0o755);
    for (const entry of await readdir(dir)) {
      const p = path.join(dir, entry);
      if ((await stat(p)).isDirectory()) await walk(p);
      else await chmod(p, 0o644);
    }
  };
  await walk(to);
}

describe('e2e: a 100-benchmark third-party Go suite (fastjson) in one minute', () => {
  it('measures and judges every benchmark within the budget, with no error', async () => {
    requireTool(['go', 'version'], 'Go');
    const dir = (
      JSON.parse(
        execFileSync('go', ['mod', 'download', '-json', MODULE], { encoding: 'utf8' }),
      ) as { Dir: string }
    ).Dir;
    const root = await mkdtemp(path.join(os.tmpdir(), 'duetkit-e2e-fastjson-'));
    try {
      await writableCopy(dir, path.join(root, 'base'));
      await writableCopy(dir, path.join(root, 'head'));
      const result = await runE2e(
        'go-large-suite',
        `name: fastjson-aa
versions:
  - {name: base, path: ${path.join(root, 'base')}}
  - {name: head, path: ${path.join(root, 'head')}}
workload:
  command: go test -bench . -benchmem
  format: go
  perBenchmark: true
budget: 60s
suite: {}
seed: 11
`,
      );
      const suite = result.samples.suite!;
      expect(suite.units).toHaveLength(100);
      const primary = result.report.results.filter(
        (r) => r.version === 'head' && r.derivedFrom === undefined && r.exact === undefined,
      );
      expect(primary).toHaveLength(100);
      // every benchmark measured and compared: no error, none left unmeasured by the budget
      expect(result.report.summary.error).toBe(0);
      expect(primary.filter((r) => r.comparison === null).map((r) => r.benchmark)).toEqual([]);
      // the screening's shares are sized from the budget: every one gets the same few pairs
      // (at least the 2 an interval needs)
      const pairs = primary.map((r) => r.comparison!.n.base);
      expect(Math.min(...pairs)).toBeGreaterThanOrEqual(MIN_SCREENING_PAIRS);
      // a minute cannot give 100 benchmarks the 20-pair first look: the plan screens at what the
      // budget affords and keeps two confirming looks (plan.ts screenThenConfirm), their pairs set
      // again from the pace of the first 10 benchmarks (replanFromPace: on this VM a duet's
      // round costs about twice the prediction), so the screening look is one they reach; a
      // screening short of the call floor confirms at the floor first, then at growth times,
      // the confirming error split; else at growth times and growth times that (15% and 5%)
      // (growth 3, one repetition a process: a look at 8 when the screening is 3 to 7 pairs)
      const screening = suite.schedule.pairs[0]!;
      expect(screening).toBeLessThan(20);
      const atFloor = screening < MIN_PAIRS_TO_CALL && 3 * screening > MIN_PAIRS_TO_CALL;
      expect(suite.schedule.weights).toEqual(atFloor ? [0.8, 0.1, 0.1] : [0.8, 0.2 * 0.75, 0.05]);
      if (atFloor) expect(suite.schedule.pairs[1]).toBe(MIN_PAIRS_TO_CALL);
      expect(suite.units.filter((u) => u.look >= 0).length).toBeGreaterThanOrEqual(80);
      // one warm-up round in all: the first benchmark's, for the one test binary per version
      // (later benchmarks run the same warm binaries)
      const warm = [
        ...new Set(result.samples.trials.filter((t) => t.warmup).map((t) => t.benchmark)),
      ];
      expect(warm).toEqual([suite.units[0]!.name]);
      // the family is the 100 timings: B/op and allocs/op are exact, not tests
      const allocs = result.report.results.filter(
        (r) => r.version === 'head' && r.benchmark.endsWith(' - allocs/op'),
      );
      expect(allocs).toHaveLength(100);
      // constant counts (most of them; a pool's refill can vary one by a unit) are exact
      const exact = allocs.filter((r) => r.exact !== undefined);
      expect(exact.length).toBeGreaterThanOrEqual(90);
      expect(exact.filter((r) => r.exact!.base !== r.exact!.head).length).toBeLessThanOrEqual(3);
      expect(result.out).not.toMatch(/allocs\/op.*0\.00% \[0\.00%, 0\.00%\]/);
      // an A/A: at most a stray call among 100 (the family-wise level is 1%; the VM is shared)
      const called = primary.filter((r) =>
        ['regression', 'improvement'].includes(r.comparison!.verdict),
      );
      expect(called.length).toBeLessThanOrEqual(3);
    } finally {
      await removeDir(root);
    }
  }, 240_000);
});
