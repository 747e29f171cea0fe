/**
 * The differential profile on real programs (issue 23, "Proof"; BENCHMARKS.md, "Explain").
 *
 * Part `programs`: for C (gcc -O2 -fno-omit-frame-pointer, perf), Go (a `go test -bench`
 * package, pprof), Python (a plain python command, py-spy) and Node (a plain node command,
 * --cpu-prof), a program whose four functions do known shares of the work (40/30/20/10%,
 * benchmarks/explain-programs/<lang>/), run through the real `duetkit run` with
 * `profile: always`, base against
 *   - `slow`: a head where encode_output (20% of the work, not the biggest) does +50% more of
 *     it: the whole does +10%; encode_output's share goes from 20% to 27.3% (+7.27 pp) and its
 *     contribution (head share × time ratio − base share) is +0.10 of base's time; the other
 *     functions' contributions are 0 though their shares fall;
 *   - `aa`: an identical copy of base.
 * Recorded per run: the measured change, where the slowed function ranks among the rows the
 * differential calls beyond noise and among all its rows, its share change, interval and
 * contribution against the constructed ones (also against those predicted from its measured
 * base share, which the program's start-up and the interpreter dilute), every row called
 * beyond noise (an A/A should have none), and the machine time of measuring against profiling.
 *
 * Part `suite`: go-fastjson with its injected slowdown (benchmarks/suites/go-fastjson.ts),
 * `profile: changed`: for each benchmark called a regression, where `injectedRehash` ranks.
 *
 *   node --import tsx benchmarks/explain-programs.ts --part programs --lang c|go|python|node
 *        [--case slow|aa|both] [--aa 4] [--slow 1] [--iterations 20] [--profile-runs 24]
 *   node --import tsx benchmarks/explain-programs.ts --part suite [--budget 150]
 *   node --import tsx benchmarks/explain-programs.ts --summary     # the table from the file
 *
 * Each run appends to benchmarks/results/explain-programs.json (so that runs can be split to
 * keep each exclusive hold of the bench lock short); `--summary` aggregates. Figure-producing
 * runs: under `flock -x /tmp/bench.lock`. Python needs py-spy from the formats venv
 * (`.ci/setup-formats.sh`, .venv/formats/bin), put first on the PATH here.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ComparisonReport } from '../src/contracts/comparison.js';
import type { Explain, ExplainFunction } from '../src/contracts/explain.js';
import type { ProfilesFile } from '../src/contracts/profile.js';
import type { SamplesFile } from '../src/contracts/samples.js';
import { wilsonInterval } from '../src/stats/proportion.js';
import { goFastjson } from './suites/go-fastjson.js';
import { inject } from './suites/suite.js';

const RESULTS = 'benchmarks/results/explain-programs.json';
const PROGRAMS = path.resolve('benchmarks/explain-programs');

const argv = process.argv.slice(2);
const value = (flag: string, fallback: string): string => {
  const i = argv.indexOf(flag);
  return i < 0 ? fallback : argv[i + 1]!;
};
const count = (flag: string, fallback: string): number => {
  const n = Number(value(flag, fallback));
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`${flag}: expected a whole number ≥ 0, got ${value(flag, fallback)}`);
  return n;
};

/** The constructed program: shares of the work and the slowdown of one function. */
const SHARES = { parse_records: 0.4, hash_keys: 0.3, encode_output: 0.2, validate: 0.1 };
const EXTRA = 0.5;
const SLOWED = 'encode_output';
const CONSTRUCTED = {
  shares: SHARES,
  slowed: SLOWED,
  extraOfFunction: EXTRA,
  totalSlowdown: EXTRA * SHARES[SLOWED],
  slowedHeadShare: (SHARES[SLOWED] * (1 + EXTRA)) / (1 + EXTRA * SHARES[SLOWED]),
  shareChange: (SHARES[SLOWED] * (1 + EXTRA)) / (1 + EXTRA * SHARES[SLOWED]) - SHARES[SLOWED],
  contribution: EXTRA * SHARES[SLOWED],
};

interface Language {
  name: string;
  profiler: string;
  /** Files copied from benchmarks/explain-programs/<dir>. */
  dir: string;
  /** The source line with the slowdown, and what the slow head has instead. */
  file: string;
  knob: [string, string];
  /** How each function is named in the profiles (perf symbol, pprof, py-spy, V8). */
  names: Record<keyof typeof SHARES, RegExp>;
  build?: (dir: string) => void;
  workload: string[];
}

const LANGUAGES: Language[] = [
  {
    name: 'c',
    profiler: 'perf',
    dir: 'c',
    file: 'work.c',
    knob: ['#define ENCODE_EXTRA_PERCENT 0', '#define ENCODE_EXTRA_PERCENT 50'],
    names: {
      parse_records: /^parse_records$/,
      hash_keys: /^hash_keys$/,
      encode_output: /^encode_output$/,
      validate: /^validate$/,
    },
    build: (dir) =>
      execFileSync('gcc', ['-O2', '-g', '-fno-omit-frame-pointer', '-o', 'work', 'work.c'], {
        cwd: dir,
      }),
    workload: ['workload:', '  command: ./work 1000'],
  },
  {
    name: 'go',
    profiler: 'pprof',
    dir: 'go',
    file: 'work_test.go',
    knob: ['const encodeExtraPercent = 0', 'const encodeExtraPercent = 50'],
    names: {
      parse_records: /\.parseRecords$/,
      hash_keys: /\.hashKeys$/,
      encode_output: /\.encodeOutput$/,
      validate: /\.validate$/,
    },
    build: (dir) =>
      execFileSync('go', ['test', '-run', '^$', '-bench', 'x^', '.'], {
        cwd: dir,
        stdio: 'ignore',
      }),
    workload: ['workload:', '  command: go test -bench . -benchtime 1000x', '  format: go'],
  },
  {
    name: 'python',
    profiler: 'py-spy',
    dir: 'python',
    file: 'work.py',
    knob: ['ENCODE_EXTRA_PERCENT = 0', 'ENCODE_EXTRA_PERCENT = 50'],
    names: {
      parse_records: /^parse_records \(/,
      hash_keys: /^hash_keys \(/,
      encode_output: /^encode_output \(/,
      validate: /^validate \(/,
    },
    workload: ['workload:', '  command: python3 work.py 200'],
  },
  {
    name: 'node',
    profiler: 'node',
    dir: 'node',
    file: 'work.js',
    knob: ['const ENCODE_EXTRA_PERCENT = 0;', 'const ENCODE_EXTRA_PERCENT = 50;'],
    names: {
      parse_records: /^parseRecords \(/,
      hash_keys: /^hashKeys \(/,
      encode_output: /^encodeOutput \(/,
      validate: /^validate \(/,
    },
    workload: ['workload:', '  command: node work.js 500'],
  },
];

/** PATH with the formats venv first (py-spy; its python3 is the machine's own). */
function envWithVenv(): NodeJS.ProcessEnv {
  const candidates = [path.resolve('.venv/formats/bin'), '/work/main/.venv/formats/bin'];
  const venv = candidates.find((d) => existsSync(path.join(d, 'py-spy')));
  if (venv === undefined)
    throw new Error('py-spy is missing from .venv/formats: run .ci/setup-formats.sh');
  return { ...process.env, PATH: `${venv}:${process.env.PATH ?? ''}` };
}

interface DuetkitRun {
  dir: string;
  wallSeconds: number;
  samples: SamplesFile;
  comparison: ComparisonReport;
  profiles: ProfilesFile | null;
}

function duetkitRun(scenarioLines: string[], env: NodeJS.ProcessEnv): DuetkitRun {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'duetkit-explain-programs-'));
  const scenario = path.join(dir, 'scenario.yml');
  writeFileSync(scenario, [...scenarioLines, ''].join('\n'));
  const out = path.join(dir, 'out');
  const t0 = Date.now();
  try {
    execFileSync(
      process.execPath,
      ['--import', 'tsx', 'src/cli/bin.ts', 'run', scenario, '--out', out],
      { env, stdio: ['ignore', 'ignore', 'pipe'] },
    );
  } catch (error) {
    // exit 1 is a regression found; a failed run has no comparison.json
    if (!existsSync(path.join(out, 'comparison.json'))) {
      const stderr = String((error as { stderr?: Buffer }).stderr ?? '');
      throw new Error(`duetkit run failed (${dir}): ${stderr}`);
    }
  }
  const wallSeconds = (Date.now() - t0) / 1000;
  const read = <T>(file: string): T => JSON.parse(readFileSync(path.join(out, file), 'utf8')) as T;
  return {
    dir,
    wallSeconds,
    samples: read<SamplesFile>('samples.json'),
    comparison: read<ComparisonReport>('comparison.json'),
    profiles: existsSync(path.join(out, 'profiles.json'))
      ? read<ProfilesFile>('profiles.json')
      : null,
  };
}

const round = (x: number | null | undefined, digits = 5): number | null =>
  x === null || x === undefined || !Number.isFinite(x) ? null : +x.toFixed(digits);

/** A row of the differential as recorded: every field comparison.json has, rounded. */
function row(f: ExplainFunction): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(f).map(([k, v]) => [k, typeof v === 'number' ? round(v) : v]),
  );
}

/** What one explain block says about `target` (a self row) and about everything it called. */
function readExplain(explain: Explain, target: RegExp | null) {
  const called = explain.functions.filter((f) => f.beyondNoise);
  const selfRows = explain.functions.filter((f) => f.kind === 'self');
  const byContribution = [...selfRows].sort(
    (a, b) => Math.abs(b.contribution) - Math.abs(a.contribution),
  );
  const byChange = [...selfRows].sort((a, b) => Math.abs(b.change) - Math.abs(a.change));
  const rank = (rows: ExplainFunction[], anyKind = false) => {
    if (target === null) return null;
    const i = rows.findIndex((f) => (anyKind || f.kind === 'self') && target.test(f.name));
    return i < 0 ? null : i + 1;
  };
  const slowed =
    target === null
      ? null
      : (explain.functions.find((f) => f.kind === 'self' && target.test(f.name)) ?? null);
  return {
    profiler: explain.profiler,
    warning: explain.warning,
    samples: explain.samples,
    work: explain.work,
    timeRatio: round(explain.timeRatio),
    timeRatioSource: explain.timeRatioSource,
    method: explain.method,
    profilingSeconds: round(explain.seconds, 2),
    calledBeyondNoise: called.map(row),
    slowedRow: slowed === null ? null : row(slowed),
    /**
     * rank among the rows called beyond noise, in the differential's own order (1 = first), its
     * self or its total row
     */
    slowedRankCalled: rank(called, true),
    slowedRankCalledSelf: rank(called),
    /** rank among all self rows, in the differential's own order */
    slowedRankAll: rank(explain.functions),
    slowedRankByContribution: rank(byContribution),
    slowedRankByShareChange: rank(byChange),
    functions: explain.functions.length,
    top: explain.functions.slice(0, 6).map(row),
  };
}

function measuringSeconds(samples: SamplesFile): number {
  return (Date.parse(samples.finishedAt) - Date.parse(samples.startedAt)) / 1000;
}

function load(): number[] {
  return os.loadavg().map((x) => +x.toFixed(2));
}

function appendResult(entry: Record<string, unknown>): void {
  const all = existsSync(RESULTS)
    ? (JSON.parse(readFileSync(RESULTS, 'utf8')) as { runs: Record<string, unknown>[] })
    : { runs: [] };
  all.runs.push(entry);
  writeFileSync(RESULTS, `${JSON.stringify({ constructed: CONSTRUCTED, ...all }, null, 1)}\n`);
}

function workspace(lang: Language): { root: string; base: string; aa: string; slow: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), `duetkit-explain-programs-${lang.name}-`));
  const dirs = {
    base: path.join(root, 'base'),
    aa: path.join(root, 'aa'),
    slow: path.join(root, 'slow'),
  };
  for (const dir of Object.values(dirs))
    cpSync(path.join(PROGRAMS, lang.dir), dir, { recursive: true });
  inject(path.join(dirs.slow, lang.file), lang.knob[0], lang.knob[1]);
  for (const dir of Object.values(dirs)) lang.build?.(dir);
  return { root, ...dirs };
}

function runProgram(
  lang: Language,
  kase: 'slow' | 'aa',
  dirs: { base: string; aa: string; slow: string },
  env: NodeJS.ProcessEnv,
) {
  const iterations = count('--iterations', '20');
  const profileRuns = count('--profile-runs', '24');
  const run = duetkitRun(
    [
      `name: explain-${lang.name}-${kase}`,
      'versions:',
      `  - { name: base, path: ${dirs.base} }`,
      `  - { name: head, path: ${kase === 'slow' ? dirs.slow : dirs.aa} }`,
      ...lang.workload,
      `iterations: ${iterations}`,
      'warmup: 1',
      `profile: { when: always, runs: ${profileRuns}, budget: 300s }`,
    ],
    env,
  );
  const results = run.comparison.results.filter(
    (r) => r.comparison !== null && r.exact === undefined,
  );
  if (results.length !== 1)
    throw new Error(`${lang.name}: expected one timed result, got ${results.length} (${run.dir})`);
  const result = results[0]!;
  const explain = result.explain;
  if (explain === undefined) throw new Error(`${lang.name}: no explain block (${run.dir})`);
  const read = readExplain(explain, kase === 'slow' ? lang.names[SLOWED] : null);
  // the four functions' measured base shares: what start-up and the runtime leave them
  const baseShare = (name: keyof typeof SHARES) =>
    explain.functions.find((f) => f.kind === 'self' && lang.names[name].test(f.name))?.base ?? 0;
  const slowedBase = baseShare(SLOWED);
  const fourBase = (Object.keys(SHARES) as (keyof typeof SHARES)[]).reduce(
    (sum, name) => sum + baseShare(name),
    0,
  );
  const predicted =
    kase === 'slow'
      ? {
          // from the measured base share s of encode_output: head share 1.5s / (1 + 0.5s)
          shareChange: round((slowedBase * (1 + EXTRA)) / (1 + EXTRA * slowedBase) - slowedBase),
          contribution: round(EXTRA * slowedBase),
          totalSlowdown: round(EXTRA * slowedBase),
        }
      : null;
  const lastEndMs = Math.max(...run.samples.trials.map((t) => t.endMs));
  const entry = {
    part: 'programs',
    language: lang.name,
    case: kase,
    at: new Date().toISOString(),
    load: load(),
    iterations,
    profileRuns,
    benchmark: result.benchmark,
    verdict: result.comparison!.verdict,
    change: round(result.comparison!.change),
    ci: [round(result.comparison!.ci.lower), round(result.comparison!.ci.upper)],
    measuredBaseShares: {
      slowed: round(slowedBase),
      fourFunctions: round(fourBase),
      slowedAmongFour: round(fourBase > 0 ? slowedBase / fourBase : null),
    },
    predictedFromBase: predicted,
    explain: read,
    seconds: {
      measuring: round(measuringSeconds(run.samples), 2),
      profiling: round(run.profiles?.seconds ?? null, 2),
      wall: round(run.wallSeconds, 2),
      // profiling starts after the last measured trial ended: none of it is in a pair
      lastTrialEndToFinish: round(
        (Date.parse(run.samples.finishedAt) - Date.parse(run.samples.startedAt) - lastEndMs) / 1000,
        3,
      ),
    },
    profilesWarnings: run.profiles?.warnings ?? [],
  };
  appendResult(entry);
  rmSync(run.dir, { recursive: true, force: true });
  const s = read.slowedRow;
  console.log(
    `${lang.name} ${kase}: ${entry.verdict} ${((entry.change ?? 0) * 100).toFixed(2)}%, ` +
      `${read.samples.base}/${read.samples.head} samples, called ${read.calledBeyondNoise.length}` +
      (s === null
        ? ''
        : `, ${SLOWED} rank ${read.slowedRankCalled ?? '-'} (all ${read.slowedRankAll}), ` +
          `change ${((s.change as number) * 100).toFixed(2)} pp [${((s.lower as number) * 100).toFixed(2)}, ${((s.upper as number) * 100).toFixed(2)}], ` +
          `contribution ${(s.contribution as number).toFixed(4)} (predicted ${predicted?.contribution})`) +
      `; measuring ${entry.seconds.measuring} s, profiling ${entry.seconds.profiling} s` +
      (read.calledBeyondNoise.length > 0 && kase === 'aa'
        ? `; flagged: ${read.calledBeyondNoise.map((f) => `${String(f.name)} ${String(f.kind)}`).join(', ')}`
        : ''),
  );
}

function programs(): void {
  const name = value('--lang', '');
  const lang = LANGUAGES.find((l) => l.name === name);
  if (lang === undefined)
    throw new Error(
      `--lang: expected one of ${LANGUAGES.map((l) => l.name).join(', ')}, got '${name}'`,
    );
  const env = lang.name === 'python' ? envWithVenv() : process.env;
  const dirs = workspace(lang);
  const kase = value('--case', 'both');
  if (!['slow', 'aa', 'both'].includes(kase))
    throw new Error(`--case: expected slow, aa or both, got '${kase}'`);
  try {
    if (kase !== 'aa')
      for (let i = 0; i < count('--slow', '1'); i++) runProgram(lang, 'slow', dirs, env);
    if (kase !== 'slow')
      for (let i = 0; i < count('--aa', '4'); i++) runProgram(lang, 'aa', dirs, env);
  } finally {
    rmSync(dirs.root, { recursive: true, force: true });
  }
}

function suite(): void {
  const s = goFastjson;
  const dirs = s.prepare();
  const { base, slow, env } = dirs;
  s.warm?.(dirs);
  const budget = count('--budget', '150');
  const benchmarks = [
    '/^BenchmarkParseRawNumber/',
    '/^BenchmarkParse/canada/',
    '/^BenchmarkParseRawString/"abcd"$/',
  ];
  const run = duetkitRun(
    [
      `name: explain-${s.name}-slow`,
      'versions:',
      `  - { name: base, path: ${base} }`,
      `  - { name: head, path: ${slow} }`,
      ...s.scenario(benchmarks),
      `budget: ${budget}s`,
      'suite: { build: auto, calibration: fixed, granularity: listed }',
      'profile: { when: changed, runs: 8, budget: 240s }',
    ],
    env,
  );
  const target = /\.injectedRehash$/;
  const timed = run.comparison.results.filter(
    (r) => r.comparison !== null && r.exact === undefined,
  );
  const rows = timed.map((r) => {
    const affected = s.injected.affects.test(r.benchmark);
    const read = r.explain === undefined ? null : readExplain(r.explain, target);
    return {
      benchmark: r.benchmark,
      affected,
      verdict: r.comparison!.verdict,
      change: round(r.comparison!.change),
      ci: [round(r.comparison!.ci.lower), round(r.comparison!.ci.upper)],
      explain: read,
    };
  });
  const profiled = rows.filter((r) => r.explain !== null && r.explain.profiler !== null);
  const entry = {
    part: 'suite',
    suite: s.label,
    injected: s.injected.where,
    at: new Date().toISOString(),
    load: load(),
    benchmarks,
    results: rows,
    summary: {
      timed: rows.length,
      calledRegression: rows.filter((r) => r.verdict === 'regression').length,
      profiled: profiled.length,
      injectedFirst: profiled.filter((r) => r.explain!.slowedRankCalled === 1).length,
      injectedCalled: profiled.filter((r) => r.explain!.slowedRankCalled !== null).length,
    },
    seconds: {
      measuring: round(measuringSeconds(run.samples), 2),
      profiling: round(run.profiles?.seconds ?? null, 2),
      wall: round(run.wallSeconds, 2),
    },
    profilesWarnings: run.profiles?.warnings ?? [],
  };
  appendResult(entry);
  rmSync(run.dir, { recursive: true, force: true });
  for (const r of rows) {
    const e = r.explain;
    console.log(
      `${r.benchmark}${r.affected ? ' (affected)' : ''}: ${r.verdict} ${((r.change ?? 0) * 100).toFixed(2)}%` +
        (e === null || e.profiler === null
          ? ''
          : `; ${e.samples.base}/${e.samples.head} samples, injectedRehash rank ${e.slowedRankCalled ?? '-'} of ${e.calledBeyondNoise.length} called` +
            (e.slowedRow === null
              ? ''
              : `, change ${((e.slowedRow.change as number) * 100).toFixed(2)} pp, contribution ${(e.slowedRow.contribution as number).toFixed(4)}`)),
    );
  }
  console.log(`measuring ${entry.seconds.measuring} s, profiling ${entry.seconds.profiling} s`);
}

interface RecordedRow {
  name: string;
  kind: string;
  change: number;
  lower: number;
  upper: number;
  contribution: number;
}
interface RecordedRun {
  part: string;
  language?: string;
  case?: string;
  change: number;
  verdict: string;
  predictedFromBase: { shareChange: number; contribution: number } | null;
  explain: {
    samples: { base: number; head: number };
    calledBeyondNoise: RecordedRow[];
    slowedRow: RecordedRow | null;
    slowedRankCalled: number | null;
  };
  seconds: { measuring: number; profiling: number };
}

const pct = (x: number, digits = 1): string => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(digits)}`;
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/** One Markdown row per language, from every run recorded. */
function summary(): void {
  const all = JSON.parse(readFileSync(RESULTS, 'utf8')) as { runs: RecordedRun[] };
  console.log(
    '| language (profiler) | slowed named first | its share change, pp [interval] | contribution (predicted) | measured change | other self rows called (slow runs) | A/A flag-free (95% Wilson) | A/A flags | samples a side | measuring / profiling s |',
  );
  console.log('| --- | --: | --- | --- | --- | --- | --: | --- | --: | --: |');
  for (const lang of LANGUAGES) {
    const runs = all.runs.filter((r) => r.part === 'programs' && r.language === lang.name);
    if (runs.length === 0) continue;
    const slow = runs.filter((r) => r.case === 'slow');
    const aa = runs.filter((r) => r.case === 'aa');
    const clean = aa.filter((r) => r.explain.calledBeyondNoise.length === 0).length;
    const w = wilsonInterval(clean, aa.length, 0.95);
    const flags = aa
      .flatMap((r) => r.explain.calledBeyondNoise)
      .map((f) => `${f.name.replace(/ \(.*\)$/, '')} ${f.kind} ${pct(f.change)} pp`);
    const changes = slow
      .map((r) => r.explain.slowedRow)
      .filter((f): f is RecordedRow => f !== null)
      .map((f) => `${pct(f.change)} [${pct(f.lower)}, ${pct(f.upper)}]`);
    const others = slow.flatMap((r) =>
      r.explain.calledBeyondNoise
        .filter((f) => !lang.names[SLOWED].test(f.name) && f.kind === 'self')
        .map(
          (f) =>
            `${f.name.replace(/ \(.*\)$/, '')} ${pct(f.change)} pp (contribution ${pct(f.contribution)}%)`,
        ),
    );
    const contributions = slow.map(
      (r) =>
        `${r.explain.slowedRow === null ? '–' : pct(r.explain.slowedRow.contribution, 1)} (${pct(r.predictedFromBase?.contribution ?? NaN, 1)})`,
    );
    console.log(
      `| ${lang.name} (${lang.profiler}) | ${slow.filter((r) => r.explain.slowedRankCalled === 1).length}/${slow.length} | ${changes.join('; ')} | ${contributions.join('; ')} % | ${slow.map((r) => `${pct(r.change)}% ${r.verdict}`).join('; ')} | ${others.length === 0 ? 'none' : others.join('; ')} | ${clean}/${aa.length} [${(w.lower * 100).toFixed(0)}%, ${(w.upper * 100).toFixed(0)}%] | ${flags.length === 0 ? 'none' : flags.join('; ')} | ${Math.round(mean(runs.map((r) => r.explain.samples.base)))} | ${mean(runs.map((r) => r.seconds.measuring)).toFixed(1)} / ${mean(runs.map((r) => r.seconds.profiling)).toFixed(1)} |`,
    );
  }
}

/** Every language together: the A/A runs flag-free, the slow runs naming the function first. */
function pooled(): void {
  const all = JSON.parse(readFileSync(RESULTS, 'utf8')) as { runs: RecordedRun[] };
  const runs = all.runs.filter((r) => r.part === 'programs');
  const aa = runs.filter((r) => r.case === 'aa');
  const slow = runs.filter((r) => r.case === 'slow');
  const clean = aa.filter((r) => r.explain.calledBeyondNoise.length === 0).length;
  const w = wilsonInterval(clean, aa.length, 0.95);
  const first = slow.filter((r) => r.explain.slowedRankCalled === 1).length;
  const wf = wilsonInterval(first, slow.length, 0.95);
  console.log(
    `\nall languages: A/A flag-free ${clean}/${aa.length} [${(w.lower * 100).toFixed(1)}%, ${(w.upper * 100).toFixed(1)}%]; ` +
      `slowed function named first ${first}/${slow.length} [${(wf.lower * 100).toFixed(1)}%, ${(wf.upper * 100).toFixed(1)}%]`,
  );
}

interface RecordedSuite {
  part: string;
  at: string;
  results: {
    benchmark: string;
    affected: boolean;
    verdict: string;
    change: number;
    explain: {
      profiler: string | null;
      samples: { base: number; head: number };
      calledBeyondNoise: RecordedRow[];
      slowedRow: RecordedRow | null;
      slowedRankCalled: number | null;
    } | null;
  }[];
}

/** The third-party suite's runs: per benchmark, where the injected function ranks. */
function suiteSummary(): void {
  const all = JSON.parse(readFileSync(RESULTS, 'utf8')) as { runs: RecordedSuite[] };
  for (const run of all.runs.filter((r) => r.part === 'suite')) {
    console.log(`\n${run.at}\n`);
    console.log(
      '| benchmark | injected? | verdict | change | samples a side | injectedRehash rank (called rows) | its self share change, pp [interval] | contribution |',
    );
    console.log('| --- | --- | --- | --: | --: | --: | --- | --: |');
    for (const r of run.results) {
      const e = r.explain;
      const row = e?.slowedRow ?? null;
      console.log(
        `| ${r.benchmark} | ${r.affected ? 'yes' : 'no'} | ${r.verdict} | ${pct(r.change)}% | ${e === null || e.profiler === null ? 'not profiled' : e.samples.base} | ${e === null || e.profiler === null ? '–' : `${e.slowedRankCalled ?? '–'} of ${e.calledBeyondNoise.length}`} | ${row === null ? '–' : `${pct(row.change)} [${pct(row.lower)}, ${pct(row.upper)}]`} | ${row === null ? '–' : `${pct(row.contribution)}%`} |`,
      );
    }
  }
}

const part = argv.includes('--summary') ? 'summary' : value('--part', 'programs');
if (part === 'programs') programs();
else if (part === 'suite') suite();
else if (part === 'summary') {
  summary();
  pooled();
  suiteSummary();
} else throw new Error(`--part: expected programs or suite, got '${part}'`);
