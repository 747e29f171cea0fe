/**
 * Real third-party suites through duetkit and through each ecosystem's usual method, at equal
 * machine time (BENCHMARKS.md, "Suites"). The suites are fetched at benchmark time through
 * their registries into a cache outside the repository (benchmarks/suites/*.ts), never
 * committed: Go (module proxy), Rust (crates.io), Python (PyPI).
 *
 *   node --import tsx benchmarks/suites.ts --suite go-xxhash|rust-base64|py-cattrs|go-fastjson|rust-itertools
 *        --case aa|slow [--budget 120] [--noise] [--runs 1] [--threshold 0.05] [--mode duet|rmit]
 *        [--no-usual]   (duetkit only: the ecosystem's usual method is not run)
 *        [--suite-settings '{ repetitions: auto }']   (the scenario's suite: line, default {})
 *   node --import tsx benchmarks/suites.ts --suite S --truth [--budget 240]
 *        [--suite-settings '{ granularity: group }']   (the ground truth; grouped as the runs are)
 *   node --import tsx benchmarks/suites.ts --suite S --truth-from DIR
 *        (the truth again from a truth run kept in DIR, e.g. /tmp/duetkit-truth-*, with today's analysis)
 *   node --import tsx benchmarks/suites.ts --score SUITE  # each run against the ground truth
 *   node --import tsx benchmarks/suites.ts --prepare      # fetch and build only
 *
 * Each comparison appends to benchmarks/results/suites.json: duetkit's verdicts (and the
 * same samples re-analysed at ±2%), CI widths, machine time, pairs per second, efficiency,
 * and the usual method's calls on the same versions with the same machine time.
 * The figure-producing runs need a quiet machine: run them under `flock -x`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { analyzeSamples } from '../src/analyze/analyze.js';
import { trialValue } from '../src/analyze/trial-value.js';
import type { SamplesFile } from '../src/contracts/samples.js';
import { goFastjson } from './suites/go-fastjson.js';
import { goXxhash } from './suites/go-xxhash.js';
import { pyCattrs } from './suites/py-cattrs.js';
import { rustBase64 } from './suites/rust-base64.js';
import { rustItertools } from './suites/rust-itertools.js';
import type { Suite } from './suites/suite.js';
import { withNoise } from './noise-neighbour.js';
import { renderAblation, renderScored, renderSuites, renderTruth } from './suites/render.js';

const SUITES: Suite[] = [goXxhash, rustBase64, pyCattrs, goFastjson, rustItertools];
const RESULTS = 'benchmarks/results/suites.json';
const TRUTH = 'benchmarks/results/suites-truth.json';

const argv = process.argv.slice(2);
const value = (flag: string, fallback: string): string => {
  const i = argv.indexOf(flag);
  return i < 0 ? fallback : argv[i + 1]!;
};

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[s.length >> 1]!;
}

interface DuetkitOutcome {
  seconds: number;
  samplesFile: string;
  at: Record<string, unknown>[];
  logRatios: Record<string, number[]>;
}

/** Every benchmark's pair log-ratios in round order (primary metrics, each trial's value as the analysis takes it): the recorded data. */
function logRatiosOf(samples: SamplesFile): Record<string, number[]> {
  const byRound = new Map<string, Map<number, number[]>>();
  for (const t of samples.trials) {
    if (t.warmup) continue;
    for (const m of t.metrics) {
      if (m.derivedFrom !== undefined || m.name.includes(' - ')) continue;
      const rounds = byRound.get(m.name) ?? new Map<number, number[]>();
      const pair = rounds.get(t.round) ?? [NaN, NaN];
      pair[t.version] = trialValue(m.values, m);
      rounds.set(t.round, pair);
      byRound.set(m.name, rounds);
    }
  }
  const out: Record<string, number[]> = {};
  for (const [name, rounds] of byRound) {
    out[name] = [...rounds.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([, [b, h]]) => +Math.log(h! / b!).toFixed(7))
      .filter((x) => Number.isFinite(x));
  }
  return out;
}

function duetkit(
  suite: Suite,
  base: string,
  head: string,
  env: NodeJS.ProcessEnv,
  budget: number,
  threshold: number,
  tag: string,
  variant?: string,
): DuetkitOutcome {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'duetkit-suites-'));
  const scenario = path.join(dir, 'scenario.yml');
  const own = suite.scenario();
  const lines =
    variant === undefined
      ? own
      : [...own.filter((l) => !l.startsWith('suite:')), `suite: ${variant}`];
  writeFileSync(
    scenario,
    [
      `name: ${suite.name}-${tag}`,
      `mode: ${value('--mode', 'duet')}`,
      'versions:',
      `  - { name: base, path: ${base} }`,
      `  - { name: head, path: ${head} }`,
      ...lines,
      `budget: ${budget}s`,
      ...(lines.some((l) => l.startsWith('suite:'))
        ? []
        : [`suite: ${value('--suite-settings', '{}')}`]),
      `analysis: { threshold: ${threshold} }`,
      '',
    ].join('\n'),
  );
  const t0 = Date.now();
  try {
    execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/cli/bin.ts',
        'run',
        scenario,
        '--out',
        dir,
        '--seed',
        String(Date.now() % 1e9),
      ],
      { env, stdio: ['ignore', 'ignore', 'pipe'] },
    );
  } catch (error) {
    // exit 1 is also a regression found; a failed run has an error in samples.json
    const stderr = String((error as { stderr?: Buffer }).stderr ?? '');
    if (!existsSync(path.join(dir, 'samples.json')))
      throw new Error(`duetkit run failed: ${stderr}`);
  }
  const seconds = (Date.now() - t0) / 1000;
  const samples = JSON.parse(readFileSync(path.join(dir, 'samples.json'), 'utf8')) as SamplesFile;
  if (samples.error !== null) throw new Error(`duetkit run failed: ${samples.error}`);
  const summarize = (t: number) => {
    const report = analyzeSamples(samples, { threshold: t });
    // timings only: counts (allocs/op) are compared exactly and listed in exactChanged
    const primary = report.results.filter(
      (r) => r.derivedFrom === undefined && r.comparison !== null && r.exact === undefined,
    );
    return {
      threshold: t,
      verdicts: Object.fromEntries(primary.map((r) => [r.benchmark, r.comparison!.verdict])),
      changes: Object.fromEntries(
        primary.map((r) => [r.benchmark, +r.comparison!.change.toFixed(5)]),
      ),
      ci: Object.fromEntries(
        primary.map((r) => [
          r.benchmark,
          [
            +r.comparison!.ci.lower.toFixed(5),
            +r.comparison!.ci.upper.toFixed(5),
            r.comparison!.test.pValueAdjusted,
          ],
        ]),
      ),
      widths: Object.fromEntries(
        primary.map((r) => [
          r.benchmark,
          +(r.comparison!.ci.upper - r.comparison!.ci.lower).toFixed(5),
        ]),
      ),
      medianCiWidth: median(primary.map((r) => r.comparison!.ci.upper - r.comparison!.ci.lower)),
      errors: report.results
        .filter((r) => r.error !== null)
        .map((r) => `${r.benchmark}: ${r.error}`),
      unmeasured: report.results
        .filter((r) => r.unmeasured != null)
        .map((r) => `${r.benchmark}: ${r.unmeasured}`),
      exactChanged: report.results
        .filter((r) => r.exact !== undefined && r.exact.base !== r.exact.head)
        .map((r) => `${r.benchmark} ${r.exact!.base} → ${r.exact!.head}`),
      efficiency: report.efficiency,
      pairs: Object.fromEntries(primary.map((r) => [r.benchmark, r.comparison!.n.base])),
    };
  };
  return {
    seconds,
    samplesFile: path.join(dir, 'samples.json'),
    at: [summarize(threshold), summarize(0.02)],
    logRatios: logRatiosOf(samples),
  };
}

/**
 * The ground truth of the injected slowdown: a long separate run of base against slow, one
 * version at a time (RMIT: rounds in a random order, each trial alone on the machine), only
 * the affected benchmarks and one that is not, every benchmark to the same number of rounds.
 */
async function groundTruth(suite: Suite, budget: number): Promise<void> {
  const { base, slow, env } = suite.prepare();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'duetkit-truth-'));
  const scenario = path.join(dir, 'scenario.yml');
  // every benchmark: a change of code can move others too (layout, inlining)
  const lines = suite.scenario().filter((l) => !l.startsWith('suite:'));
  // a grouped suite (criterion: several benchmarks a process) is timed grouped, as it is run
  const group =
    suite.scenario().some((l) => l.includes('granularity: group')) ||
    value('--suite-settings', '').includes('granularity: group');
  writeFileSync(
    scenario,
    [
      `name: ${suite.name}-truth`,
      'mode: rmit',
      'versions:',
      `  - { name: base, path: ${base} }`,
      `  - { name: head, path: ${slow} }`,
      ...lines,
      `budget: ${budget}s`,
      `suite: { allocation: equal, firstLook: 30, growth: 2, looks: 5${group ? ', granularity: group' : ''} }`,
      '',
    ].join('\n'),
  );
  const t0 = Date.now();
  try {
    execFileSync(
      process.execPath,
      ['--import', 'tsx', 'src/cli/bin.ts', 'run', scenario, '--out', dir, '--seed', '7'],
      { env, stdio: ['ignore', 'ignore', 'pipe'] },
    );
  } catch {
    // a regression exits 1
  }
  recordTruth(suite, dir, (Date.now() - t0) / 1000, null);
}

/** The date of `suite`'s current ground truth (suites-truth.json), null when it has none. */
function currentTruthDate(suite: string): string | null {
  if (!existsSync(TRUTH)) return null;
  const stored = JSON.parse(readFileSync(TRUTH, 'utf8')) as Record<string, { date?: string }>;
  return stored[suite]?.date ?? null;
}

/**
 * The ground truth of a truth run's samples (`dir`), stored as the suite's truth: at the end of
 * a run (`--truth`), or again from a run kept in `dir` when the analysis changed
 * (`--truth-from DIR`: `reanalysed` says when, the run's own date and seconds are kept).
 */
function recordTruth(suite: Suite, dir: string, seconds: number, reanalysed: string | null): void {
  const samples = JSON.parse(readFileSync(path.join(dir, 'samples.json'), 'utf8')) as SamplesFile;
  if (samples.error !== null) throw new Error(`ground truth run failed: ${samples.error}`);
  if (samples.scenario.name !== `${suite.name}-truth`) {
    throw new Error(
      `--truth-from: ${dir} holds the run "${samples.scenario.name}", not ${suite.name}'s truth`,
    );
  }
  // every round at once (the truth is not a sequential verdict): the pooled change
  const report = analyzeSamples({ ...samples, suite: undefined }, { threshold: 0 });
  const truth = Object.fromEntries(
    report.results
      .filter((r) => r.derivedFrom === undefined && r.comparison !== null)
      .map((r) => [
        r.benchmark,
        {
          change: r.comparison!.change,
          lower: r.comparison!.ci.lower,
          upper: r.comparison!.ci.upper,
          pairs: r.comparison!.n.base,
        },
      ]),
  );
  const stored = existsSync(TRUTH)
    ? (JSON.parse(readFileSync(TRUTH, 'utf8')) as Record<string, unknown>)
    : {};
  const before = stored[suite.name] as
    { date?: string; seconds?: number; earlier?: unknown[] } | undefined;
  // a truth measured again (the way the benchmarks are measured changed) keeps the one before
  // it: the runs made before are scored against theirs (render.ts truthFor)
  const { earlier: kept, ...previous } = before ?? {};
  const earlier = reanalysed === null && before !== undefined ? [...(kept ?? []), previous] : kept;
  stored[suite.name] = {
    date: reanalysed === null ? new Date().toISOString() : (before?.date ?? samples.startedAt),
    ...(reanalysed === null ? {} : { reanalysed }),
    method: `rmit (one version at a time, rounds in random order), all rounds pooled, 99% CI of the trimmed mean of the log ratios; a process's value: ${samples.suite?.plan?.within === 'fastest' ? 'the fastest of its timed parts' : 'the median of its values'}`,
    seconds: reanalysed === null ? seconds : (before?.seconds ?? seconds),
    condition: value('--condition', 'quiet'),
    ...(reanalysed === null ? { loadAverage: os.loadavg() } : {}),
    injected: suite.injected.where,
    benchmarks: truth,
    ...(earlier === undefined || earlier.length === 0 ? {} : { earlier }),
  };
  writeFileSync(TRUTH, `${JSON.stringify(stored, null, 1)}\n`);
  for (const [name, t] of Object.entries(truth)) {
    console.log(
      `${name}: ${(t.change * 100).toFixed(2)}% [${(t.lower * 100).toFixed(2)}%, ${(t.upper * 100).toFixed(2)}%] (${t.pairs} rounds)`,
    );
  }
}

/**
 * Each efficiency raise measured, not assumed: the same A/A comparison with the raises
 * switched on one after the other (`suite.variants`), `budget` seconds each.
 */
function ablation(suite: Suite, budget: number): void {
  const { base, aa, env } = suite.prepare();
  const file = 'benchmarks/results/suites-ablation.json';
  const stored = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as unknown[]) : [];
  for (const variant of suite.variants) {
    const d = duetkit(suite, base, aa, env, budget, 0.05, 'ablation', variant.suite);
    const at = d.at[0] as {
      verdicts: Record<string, string>;
      medianCiWidth: number;
      efficiency?: { efficiency: number | null; pairsPerSecond: number; breakdown: unknown };
      pairs: Record<string, number>;
    };
    const row = {
      suite: suite.name,
      variant: variant.label,
      settings: variant.suite,
      date: new Date().toISOString(),
      budget,
      seconds: d.seconds,
      benchmarks: Object.keys(at.verdicts).length,
      unchanged: Object.values(at.verdicts).filter((v) => v === 'unchanged').length,
      medianPairs: median(Object.values(at.pairs)),
      medianCiWidth: at.medianCiWidth,
      efficiency: at.efficiency?.efficiency ?? null,
      pairsPerSecond: at.efficiency?.pairsPerSecond ?? null,
      breakdown: at.efficiency?.breakdown ?? null,
    };
    stored.push(row);
    writeFileSync(file, `${JSON.stringify(stored, null, 1)}\n`);
    console.log(JSON.stringify({ ...row, breakdown: undefined }));
  }
}

async function main(): Promise<void> {
  if (argv.includes('--render')) {
    const document = readFileSync('BENCHMARKS.md', 'utf8');
    const begin = '<!-- suites-results:begin -->';
    const end = '<!-- suites-results:end -->';
    const section = `${begin}\n**Ground truth** (a long separate RMIT run of base against the injected version, every benchmark; only those whose 99% CI excludes 0 are listed):\n\n${renderTruth()}\n**Comparisons** (each run: duetkit's suite, then the usual method on the same versions for the same machine time):\n\n${renderSuites()}\n**Each raise measured** (A/A, 60 s of budget each, quiet):\n\n${renderAblation()}${end}`;
    const i = document.indexOf(begin);
    const j = document.indexOf(end);
    if (i < 0 || j < 0) throw new Error(`BENCHMARKS.md has no ${begin} … ${end}`);
    writeFileSync('BENCHMARKS.md', document.slice(0, i) + section + document.slice(j + end.length));
    console.error('BENCHMARKS.md: suites results rendered');
    return;
  }
  if (argv.includes('--score')) {
    process.stdout.write(renderScored(value('--score', 'go-fastjson')));
    return;
  }
  if (argv.includes('--prepare')) {
    for (const suite of SUITES) {
      const dirs = suite.prepare();
      // build once ahead (cargo's first build of criterion takes minutes; go's cache warms)
      suite.warm?.(dirs);
      console.log(suite.name, dirs.base);
    }
    return;
  }
  const suite = SUITES.find((s) => s.name === value('--suite', 'go-xxhash'));
  if (suite === undefined)
    throw new Error(`--suite: one of ${SUITES.map((s) => s.name).join(', ')}`);
  if (argv.includes('--truth')) {
    await groundTruth(suite, Number(value('--budget', '240')));
    return;
  }
  if (argv.includes('--truth-from')) {
    recordTruth(suite, value('--truth-from', ''), 0, new Date().toISOString());
    return;
  }
  if (argv.includes('--ablation')) {
    ablation(suite, Number(value('--budget', '60')));
    return;
  }
  const kase = value('--case', 'aa');
  if (kase !== 'aa' && kase !== 'slow') throw new Error('--case: aa or slow');
  const budget = Number(value('--budget', '120'));
  const runs = Number(value('--runs', '1'));
  const threshold = Number(value('--threshold', '0.05'));
  const noise = argv.includes('--noise');
  const { base, aa, slow, env } = suite.prepare();
  const head = kase === 'slow' ? slow : aa;
  const stored = existsSync(RESULTS)
    ? (JSON.parse(readFileSync(RESULTS, 'utf8')) as unknown[])
    : [];
  const truthDate = currentTruthDate(suite.name);
  for (let r = 0; r < runs; r++) {
    let logRatiosRecorded: Record<string, number[]> = {};
    const entry = await withNoise(noise, () => {
      const d = duetkit(suite, base, head, env, budget, threshold, kase);
      logRatiosRecorded = d.logRatios;
      const usual = argv.includes('--no-usual')
        ? { method: 'not run (--no-usual)', seconds: 0, changed: {} as Record<string, boolean> }
        : suite.usual(base, head, d.seconds, env);
      return {
        suite: suite.name,
        label: suite.label,
        case: kase,
        mode: value('--mode', 'duet'),
        suiteSettings: value('--suite-settings', '{}'),
        // `--condition busy`: measured while other heavy work shares the machine (no lock)
        condition: noise ? 'noise' : value('--condition', 'quiet'),
        date: new Date().toISOString(),
        loadAverage: os.loadavg(),
        budget,
        injected:
          kase === 'slow'
            ? { where: suite.injected.where, affects: String(suite.injected.affects) }
            : null,
        duetkit: { seconds: d.seconds, at: d.at },
        usual: { ...usual, detail: undefined },
        // the ground truth this run is scored against (render.ts truthFor): the current one
        ...(truthDate === null ? {} : { truth: truthDate }),
      };
    });
    stored.push(entry);
    writeFileSync(RESULTS, `${JSON.stringify(stored, null, 1)}\n`);
    // the pairs themselves, for the interval evaluation (benchmarks/intervals.ts)
    const pairsFile = 'benchmarks/results/suites-pairs.json';
    const pairs = existsSync(pairsFile)
      ? (JSON.parse(readFileSync(pairsFile, 'utf8')) as unknown[])
      : [];
    pairs.push({
      suite: suite.name,
      case: kase,
      condition: entry.condition,
      date: entry.date,
      logRatios: logRatiosRecorded,
    });
    writeFileSync(pairsFile, `${JSON.stringify(pairs)}\n`);
    const at = entry.duetkit.at[0] as { verdicts: Record<string, string> };
    const counts: Record<string, number> = {};
    for (const v of Object.values(at.verdicts)) counts[v] = (counts[v] ?? 0) + 1;
    const flagged = Object.entries(entry.usual.changed)
      .filter(([, c]) => c)
      .map(([n]) => n);
    console.log(
      `${suite.name} ${kase} ${entry.condition}: duetkit ${JSON.stringify(counts)} in ${entry.duetkit.seconds.toFixed(0)} s; ${entry.usual.method}: ${flagged.length} changed (${flagged.join(', ')}) in ${entry.usual.seconds.toFixed(0)} s`,
    );
  }
}

await main();
