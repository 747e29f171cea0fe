/**
 * Real third-party suites through duetkit and through the ecosystem's usual method, at equal
 * machine time (BENCHMARKS.md, "Suites"). The suites are fetched at benchmark time through
 * their registry into a cache outside the repository (benchmarks/suites/*.ts), never committed.
 *
 *   node --import tsx benchmarks/suites.ts --case aa|slow [--budget 90] [--noise] [--runs 1]
 *
 * Each run appends to benchmarks/results/suites.json: duetkit's verdicts at ±5% (and the same
 * samples re-analysed at ±2%), CI widths, machine time, pairs per second, efficiency, and
 * benchstat's calls on `go test -bench . -count N` of base then head taking the same time.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { analyzeSamples } from '../src/analyze/analyze.js';
import type { SamplesFile } from '../src/runner/samples.js';
import { prepareGoXxhash, GO_XXHASH } from './suites/go-xxhash.js';

const argv = process.argv.slice(2);
const value = (flag: string, fallback: string): string => {
  const i = argv.indexOf(flag);
  return i < 0 ? fallback : argv[i + 1]!;
};
const kase = value('--case', 'aa');
const budget = Number(value('--budget', '90'));
const runs = Number(value('--runs', '1'));
const noise = argv.includes('--noise');
const RESULTS = 'benchmarks/results/suites.json';
const benchstat = process.env.BENCHSTAT ?? 'benchstat';

const { base, slow, gomodcache } = prepareGoXxhash();
const head = kase === 'slow' ? slow : base;
const env = { ...process.env, GOMODCACHE: gomodcache, GOFLAGS: '-modcacherw' };

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[s.length >> 1]!;
}

async function withNoise<T>(f: () => Promise<T>): Promise<T> {
  if (!noise) return f();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli/bin.ts', 'noise', '--threads', '2', '--load', '0.5', '--duration', '1h'],
    { stdio: 'ignore' },
  );
  await new Promise((r) => setTimeout(r, 1000));
  try {
    return await f();
  } finally {
    child.kill('SIGTERM');
  }
}

async function duetkit(): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'duetkit-suites-'));
  const scenario = path.join(dir, 'scenario.yml');
  writeFileSync(
    scenario,
    [
      `name: xxhash-${kase}`,
      'mode: duet',
      'versions:',
      `  - { name: base, path: ${base} }`,
      `  - { name: head, path: ${head} }`,
      'workload: { command: go test -bench ., format: go, perBenchmark: true }',
      `budget: ${budget}s`,
      'suite: {}',
      '',
    ].join('\n'),
  );
  const t0 = Date.now();
  try {
    execFileSync(
      process.execPath,
      ['--import', 'tsx', 'src/cli/bin.ts', 'run', scenario, '--out', dir, '--seed', String(Date.now() % 1e9)],
      { env, stdio: 'ignore' },
    );
  } catch {
    // exit 1 on a regression is expected for `slow`
  }
  const seconds = (Date.now() - t0) / 1000;
  const samples = JSON.parse(readFileSync(path.join(dir, 'samples.json'), 'utf8')) as SamplesFile;
  const summarize = (threshold: number) => {
    const report = analyzeSamples(samples, { threshold });
    const primary = report.results.filter((r) => r.derivedFrom === undefined && r.comparison !== null);
    return {
      threshold,
      benchmarks: primary.length,
      verdicts: Object.fromEntries(primary.map((r) => [r.benchmark, r.comparison!.verdict])),
      changes: Object.fromEntries(primary.map((r) => [r.benchmark, r.comparison!.change])),
      medianCiWidth: median(primary.map((r) => r.comparison!.ci.upper - r.comparison!.ci.lower)),
      efficiency: report.efficiency,
    };
  };
  return {
    seconds,
    pairs: samples.suite?.units.reduce((a, u) => a + u.pairs, 0),
    at5: summarize(0.05),
    at2: summarize(0.02),
    suite: samples.suite,
  };
}

function goBench(dir: string, count: number): string {
  return execFileSync('go', ['test', '-run', '^$', '-bench', '.', '-count', String(count)], {
    cwd: dir,
    env,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
}

/** The Go community's usual method: -count N of base, then of head, then benchstat. */
function usual(seconds: number): Record<string, unknown> {
  const t0 = Date.now();
  const probe = goBench(base, 1);
  const once = (Date.now() - t0) / 1000;
  const count = Math.max(2, Math.round(seconds / 2 / once));
  const dir = mkdtempSync(path.join(os.tmpdir(), 'duetkit-benchstat-'));
  const t1 = Date.now();
  writeFileSync(path.join(dir, 'base.txt'), goBench(base, count));
  writeFileSync(path.join(dir, 'head.txt'), goBench(head, count));
  const spent = (Date.now() - t1) / 1000 + once;
  const table = execFileSync(benchstat, ['-format', 'csv', 'base.txt', 'head.txt'], {
    cwd: dir,
    encoding: 'utf8',
  });
  // the sec/op section: rows "name,base,CI,head,CI,vs base,P"
  const rows = table.split('\n\n')[0]!.split('\n').filter((l) => /^[A-Za-z]/.test(l) && l.includes('/'));
  const calls: Record<string, string> = {};
  for (const line of rows) {
    const cells = line.split(',');
    if (cells[0] === '' || cells[0]!.startsWith('geomean')) continue;
    calls[cells[0]!] = cells[5] ?? '';
  }
  void probe;
  return { count, seconds: spent, calls };
}

const stored = existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, 'utf8')) as unknown[]) : [];
for (let r = 0; r < runs; r++) {
  const entry = await withNoise(async () => {
    const d = await duetkit();
    const u = usual(d.seconds as number);
    return {
      suite: `go ${GO_XXHASH.module}@${GO_XXHASH.version}`,
      case: kase,
      condition: noise ? 'noise' : 'quiet',
      date: new Date().toISOString(),
      load: os.loadavg(),
      duetkit: d,
      benchstat: u,
    };
  });
  stored.push(entry);
  writeFileSync(RESULTS, `${JSON.stringify(stored, null, 1)}\n`);
  const d = entry.duetkit as { at5: { verdicts: Record<string, string> }; seconds: number };
  const counts = (v: Record<string, string>) =>
    Object.values(v).reduce<Record<string, number>>((a, x) => ((a[x] = (a[x] ?? 0) + 1), a), {});
  console.log(kase, entry.condition, 'duetkit', JSON.stringify(counts(d.at5.verdicts)), `${d.seconds.toFixed(0)} s`);
  const b = entry.benchstat as { calls: Record<string, string> };
  console.log('benchstat', JSON.stringify(b.calls));
}
