/**
 * Memory as metrics (issue 23): real duets through `duetkit run`, each repeated over seeds.
 *
 *   rss     tests/programs/memory/memtouch.c touching 100 MiB (base) against 110 MiB (head),
 *           workload.metric [wall, rss]: the peak-rss verdict and change, and the A/A
 *           (100 against 100 MiB): how often anything is called.
 *   allocs  tests/programs/memory/go (go test -benchmem), the head allocating one more 64-byte
 *           object per op (DUETKIT_EXTRA_ALLOC=1): allocs/op and B/op, exact; and the A/A.
 *
 *   node --import tsx benchmarks/memory.ts [--runs 10] [--iterations 10]
 *
 * Writes benchmarks/results/memory.json (replaced). Run it under `flock -x`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { numberFlag } from './args.js';

const argv = process.argv.slice(2);
const runs = numberFlag(argv, '--runs', '10');
const iterations = numberFlag(argv, '--iterations', '10');
const RESULTS = 'benchmarks/results/memory.json';
const MEMORY = path.resolve('tests/programs/memory');

const root = mkdtempSync(path.join(os.tmpdir(), 'duetkit-bench-memory-'));
const sides = ['base', 'head'].map((name) => {
  const dir = path.join(root, name);
  mkdirSync(dir);
  execFileSync('cc', ['-O1', '-o', path.join(dir, 'memtouch'), path.join(MEMORY, 'memtouch.c')]);
  return dir;
});

interface Result {
  benchmark: string;
  unit: string;
  exact?: { base: number; head: number };
  comparison: { verdict: string; change: number; ci: { lower: number; upper: number } } | null;
  error: string | null;
}

/** One `duetkit run` of a scenario (YAML lines); its results. */
function run(lines: string[], seed: number): { results: Result[]; seconds: number } {
  const out = mkdtempSync(path.join(root, 'run-'));
  const scenario = path.join(out, 'scenario.yml');
  writeFileSync(scenario, [...lines, `iterations: ${iterations}`, `seed: ${seed}`, ''].join('\n'));
  const start = process.hrtime.bigint();
  execFileSync(
    process.execPath,
    ['--import', 'tsx', 'src/cli/bin.ts', 'run', scenario, '--out', out],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const report = JSON.parse(readFileSync(path.join(out, 'comparison.json'), 'utf8')) as {
    results: Result[];
  };
  return { results: report.results, seconds };
}

const rssScenario = (head: number) => [
  'name: memtouch',
  'versions:',
  `  - {name: base, path: ${sides[0]}, env: {MEMTOUCH_MIB: "100"}}`,
  `  - {name: head, path: ${sides[1]}, env: {MEMTOUCH_MIB: "${head}"}}`,
  'workload: {command: ./memtouch, metric: [wall, rss]}',
  'analysis: {thresholds: {memory: 5%}}',
];
const goScenario = (extra: boolean) => [
  'name: go-allocs',
  'versions:',
  `  - {name: base, path: ${path.join(MEMORY, 'go')}}`,
  `  - {name: head, path: ${path.join(MEMORY, 'go')}, env: {DUETKIT_EXTRA_ALLOC: "${extra ? 1 : 0}"}}`,
  'workload:',
  "  command: go test -run '^$' -bench . -benchmem -benchtime 20000x -count 3",
  '  format: go',
];

interface Case {
  name: string;
  lines: string[];
  /** The result this case is about, and what it should be called. */
  watched: string;
  expected: string;
}
const cases: Case[] = [
  { name: 'rss +10%', lines: rssScenario(110), watched: 'peak-rss', expected: 'regression' },
  { name: 'rss A/A', lines: rssScenario(100), watched: 'peak-rss', expected: 'unchanged' },
  {
    name: 'go +1 alloc/op',
    lines: goScenario(true),
    watched: 'BenchmarkWork - allocs/op',
    expected: 'regression',
  },
  {
    name: 'go A/A',
    lines: goScenario(false),
    watched: 'BenchmarkWork - allocs/op',
    expected: 'unchanged',
  },
];

const summary = cases.map((c) => {
  const outcomes = Array.from({ length: runs }, (_, i) => {
    const { results, seconds } = run(c.lines, 1000 + i);
    const watched = results.find((r) => r.benchmark === c.watched)!;
    return {
      seconds,
      verdict: watched.comparison?.verdict ?? `error: ${watched.error}`,
      change: watched.comparison?.change ?? null,
      lower: watched.comparison?.ci.lower ?? null,
      upper: watched.comparison?.ci.upper ?? null,
      ...(watched.exact === undefined ? {} : { exact: watched.exact }),
      /** Every result called regression or improvement, the watched one included. */
      called: results
        .filter(
          (r) => r.comparison?.verdict === 'regression' || r.comparison?.verdict === 'improvement',
        )
        .map((r) => `${r.benchmark}: ${r.comparison!.verdict}`),
    };
  });
  const changes = outcomes.flatMap((o) => (o.change === null ? [] : [o.change]));
  return {
    case: c.name,
    watched: c.watched,
    expected: c.expected,
    runs,
    iterations,
    asExpected: outcomes.filter((o) => o.verdict === c.expected).length,
    anythingCalled: outcomes.filter((o) => o.called.length > 0).length,
    meanChange: changes.reduce((a, x) => a + x, 0) / changes.length,
    meanSeconds: outcomes.reduce((a, o) => a + o.seconds, 0) / outcomes.length,
    outcomes,
  };
});

writeFileSync(
  RESULTS,
  `${JSON.stringify({ date: new Date().toISOString(), machine: `${os.cpus().length} CPUs, ${os.cpus()[0]?.model}`, summary }, null, 1)}\n`,
);
rmSync(root, { recursive: true, force: true });
for (const s of summary) {
  console.log(
    `${s.case}: ${s.watched} ${s.expected} in ${s.asExpected}/${s.runs}; anything called in ${s.anythingCalled}/${s.runs}; mean change ${(s.meanChange * 100).toFixed(2)}%; ${s.meanSeconds.toFixed(1)} s a run`,
  );
}
