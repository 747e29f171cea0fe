import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { PROGRAMS, removeDir, requireTool, runE2e, versionDirs } from './helpers.js';

// Memory as metrics, end to end on real programs: a C program touching 10% more memory
// (workload.metric: rss, the timer's peak RSS of each iteration), and a Go benchmark
// allocating once more per operation (go test -benchmem, compared exactly); an A/A of each.
const MEMORY = path.join(PROGRAMS, 'memory');

/** A duet of memtouch touching `base` MiB against `head` MiB, per iteration. */
function memtouchScenario(dirs: { base: string; head: string }, base: number, head: number) {
  return `name: memtouch
versions:
  - {name: base, path: ${dirs.base}, env: {MEMTOUCH_MIB: "${base}"}}
  - {name: head, path: ${dirs.head}, env: {MEMTOUCH_MIB: "${head}"}}
workload:
  command: ./memtouch
  metric: [wall, rss]
iterations: 10
warmup: 1
seed: 23
analysis: {resamples: 2000, thresholds: {memory: 5%}}
`;
}

/** A duet of the allocs benchmark, the head allocating once more per op when `extra`. */
function goScenario(extra: boolean) {
  return `name: go-allocs
versions:
  - {name: base, path: ${path.join(MEMORY, 'go')}}
  - {name: head, path: ${path.join(MEMORY, 'go')}, env: {DUETKIT_EXTRA_ALLOC: "${extra ? 1 : 0}"}}
workload:
  command: go test -run '^$' -bench . -benchmem -benchtime 20000x -count 3
  format: go
iterations: 6
warmup: 1
seed: 23
analysis: {resamples: 2000}
`;
}

describe('e2e: memory metrics', () => {
  let dirs: Awaited<ReturnType<typeof versionDirs>>;
  beforeAll(async () => {
    dirs = await versionDirs([], MEMORY);
    requireTool(['cc', '--version'], 'a C compiler');
    for (const side of [dirs.base, dirs.head]) {
      const built = spawnSync(
        'cc',
        ['-O1', '-o', path.join(side, 'memtouch'), path.join(MEMORY, 'memtouch.c')],
        { encoding: 'utf8' },
      );
      if (built.status !== 0) throw new Error(`cc failed: ${built.stderr}`);
    }
  });
  afterAll(() => removeDir(dirs.root));

  it('a program touching 10% more memory: a peak-rss regression; an A/A: nothing', async () => {
    const more = await runE2e('memory-rss', memtouchScenario(dirs, 100, 110));
    expect(more.verdict('peak-rss')).toBe('regression');
    const rss = more.report.results.find((r) => r.benchmark === 'peak-rss')!;
    expect(rss.unit).toBe('KiB');
    expect(rss.exact).toBeUndefined();
    expect(rss.comparison!.threshold).toBe(0.05);
    // 110 MiB + the program against 100 MiB + the program: a little under +10%
    expect(rss.comparison!.change).toBeGreaterThan(0.08);
    expect(rss.comparison!.change).toBeLessThan(0.105);
    expect(more.out).toMatch(/\npeak-rss +\d+ KiB/);

    const aa = await runE2e('memory-rss-aa', memtouchScenario(dirs, 100, 100));
    const called = aa.report.results.filter(
      (r) => r.comparison?.verdict === 'regression' || r.comparison?.verdict === 'improvement',
    );
    expect(called.map((r) => r.benchmark)).toEqual([]);
    expect(aa.verdict('peak-rss')).toBe('unchanged');
  }, 180_000);

  it('a Go benchmark allocating once more per op: allocs/op 2 → 3, exactly; an A/A: nothing', async () => {
    requireTool(['go', 'version'], 'Go');
    const more = await runE2e('memory-go', goScenario(true));
    const allocs = more.report.results.find((r) => r.benchmark === 'BenchmarkWork - allocs/op')!;
    expect(allocs.exact).toEqual({ base: 2, head: 3 });
    expect(allocs.comparison!.verdict).toBe('regression');
    expect(more.out).toContain(
      'BenchmarkWork - allocs/op: 2 → 3 allocs/op (+50.00%, exact) regression',
    );
    expect(more.out).toContain('BenchmarkWork - B/op: 128 → 192 B/op (+50.00%, exact) regression');
    // exact results are no tests: the family is the ns/op timing alone
    const timing = more.report.results.find((r) => r.benchmark === 'BenchmarkWork')!;
    expect(timing.comparison!.test.pValueAdjusted).toBe(timing.comparison!.test.pValue);

    const aa = await runE2e('memory-go-aa', goScenario(false));
    const called = aa.report.results.filter(
      (r) => r.comparison?.verdict === 'regression' || r.comparison?.verdict === 'improvement',
    );
    expect(called.map((r) => r.benchmark)).toEqual([]);
    for (const unit of ['allocs/op', 'B/op']) {
      const r = aa.report.results.find((x) => x.benchmark === `BenchmarkWork - ${unit}`)!;
      expect(r.exact!.base).toBe(r.exact!.head);
      expect(aa.out).not.toContain(unit);
    }
  }, 180_000);
});
