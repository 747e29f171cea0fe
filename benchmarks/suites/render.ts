import { existsSync, readFileSync } from 'node:fs';

interface At {
  threshold: number;
  verdicts: Record<string, string>;
  ci?: Record<string, [number, number, number]>;
  medianCiWidth: number;
  efficiency?: { efficiency: number | null; pairsPerSecond: number };
}
interface Entry {
  suite: string;
  label: string;
  case: 'aa' | 'slow';
  condition: 'quiet' | 'noise';
  /** duetkit's time budget per comparison (s). */
  budget: number;
  duetkit: { seconds: number; at: At[] };
  usual: { method: string; seconds: number; changed: Record<string, boolean> };
}
interface SuiteTruth {
  /** When it was measured (ISO). */
  date: string;
  benchmarks: Record<string, { change: number; lower: number; upper: number }>;
}
/** Each suite's current truth, with those it replaced (`earlier`, oldest first). */
type Truth = Record<string, SuiteTruth & { earlier?: SuiteTruth[] }>;

/**
 * The truth a run is scored against: the one it names (`truth`, the date of the truth current
 * when it ran), else the latest measured before it, else the oldest. A truth is measured again
 * when the way the benchmarks are measured changes (fastjson's, after Go's calibration ran as
 * the processes do: other iteration counts, another quantity); a run is held to the truth of
 * what it measured.
 */
export function truthFor(
  suite: Truth[string] | undefined,
  run: { date: string; truth?: string },
): SuiteTruth | undefined {
  if (suite === undefined) return undefined;
  const all = truthsOf(suite);
  if (run.truth !== undefined) {
    const named = all.find((t) => t.date === run.truth);
    if (named === undefined)
      throw new Error(`a run of ${run.date} names a truth of ${run.truth} that is not stored`);
    return named;
  }
  return all.filter((t) => t.date <= run.date).at(-1) ?? all[0];
}

/** A suite's truths, the current one and those it replaced, oldest first. */
const truthsOf = (suite: Truth[string]): SuiteTruth[] =>
  [...(suite.earlier ?? []), suite].sort((a, b) => a.date.localeCompare(b.date));

const pct = (x: number, digits = 1): string => `${(x * 100).toFixed(digits)}%`;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;

/** The usual method's names in duetkit's spelling (benchstat drops "Benchmark" and adds -procs). */
function canonical(name: string, known: string[]): string {
  if (known.includes(name)) return name;
  const go = `Benchmark${name.replace(/-\d+$/, '')}`;
  if (known.includes(go)) return go;
  return known.find((k) => k.endsWith(`::${name}`)) ?? name;
}

/**
 * The large suites (issue 21): their runs differ in design, budget and settings from one
 * session to the next and are scored one by one (`renderScored`), not pooled in the table.
 */
export const SCORED_RUN_BY_RUN = new Set(['go-fastjson', 'rust-itertools']);

/**
 * The "Suites" table from benchmarks/results/suites.json: per suite, condition and case,
 * duetkit against the ecosystem's usual method in the same runs. For injected runs, the
 * benchmarks that really changed are those whose ground truth (suites-truth.json) is slower
 * with its 99% CI above 0; every other benchmark of the run counts as an A/A one. The large
 * suites are left out (`SCORED_RUN_BY_RUN`).
 */
export function renderSuites(
  file = 'benchmarks/results/suites.json',
  truthFile = 'benchmarks/results/suites-truth.json',
): string {
  if (!existsSync(file)) return 'No results yet: run `npm run bench:suites`.\n';
  const entries = (JSON.parse(readFileSync(file, 'utf8')) as Entry[]).filter(
    (e) => !SCORED_RUN_BY_RUN.has(e.suite),
  );
  const truth = (existsSync(truthFile) ? JSON.parse(readFileSync(truthFile, 'utf8')) : {}) as Truth;
  const out: string[] = [
    '| suite | condition | case | runs | method | A/A called changed | A/A CI excludes 0 | A/A `unchanged` ±5% / ±2% | truly changed: found (CI excludes 0) / verdict beyond ±5% | median 99% CI width | machine time | pairs/s | efficiency |',
    '|---|---|---|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|',
  ];
  // grouped by suite (in the order first run), then condition, case, threshold and budget
  const rank = (list: string[], x: string) => list.indexOf(x) + 1 || list.length + 1;
  const suites = [...new Set(entries.map((e) => e.suite))];
  const order = (e: Entry): number[] => [
    rank(suites, e.suite),
    rank(['quiet', 'busy', 'noise'], e.condition),
    rank(['aa', 'slow'], e.case),
    -e.duetkit.at[0]!.threshold,
    e.budget,
  ];
  const groups = new Map<string, Entry[]>();
  const sorted = [...entries].sort((a, b) => {
    const [x, y] = [order(a), order(b)];
    const i = x.findIndex((v, j) => v !== y[j]);
    return i < 0 ? 0 : x[i]! - y[i]!;
  });
  for (const e of sorted) {
    const key = order(e).join('|');
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  for (const runs of groups.values()) {
    const { suite, condition, case: kase, budget } = runs[0]!;
    const threshold = runs[0]!.duetkit.at[0]!.threshold;
    const at2only = threshold !== 0.05;
    // the truth's direction of a benchmark that really changed (its 99% CI excludes 0)
    const truthOf = (name: string): number => {
      const t = truth[suite]?.benchmarks[name];
      if (kase !== 'slow' || t === undefined) return 0;
      return t.lower > 0 ? 1 : t.upper < 0 ? -1 : 0;
    };
    const changedInTruth = (name: string): boolean => truthOf(name) !== 0;
    const c = {
      aa: 0,
      called: 0,
      excl: 0,
      un5: 0,
      un2: 0,
      aff: 0,
      found: 0,
      reg: 0,
      uAa: 0,
      uCalled: 0,
      uAff: 0,
      uFound: 0,
    };
    const widths: number[] = [];
    const seconds: number[] = [];
    const usualSeconds: number[] = [];
    const pace: number[] = [];
    const efficiency: number[] = [];
    for (const run of runs) {
      const [at5, at2] = run.duetkit.at as [At, At];
      seconds.push(run.duetkit.seconds);
      // a run with --no-usual ran no usual method: its 0 s is no time of that method's
      if (run.usual.seconds > 0) usualSeconds.push(run.usual.seconds);
      widths.push(at5.medianCiWidth);
      if (at5.efficiency?.efficiency != null) efficiency.push(at5.efficiency.efficiency);
      if (at5.efficiency !== undefined) pace.push(at5.efficiency.pairsPerSecond);
      for (const [name, verdict] of Object.entries(at5.verdicts)) {
        const [lower, upper, p] = at5.ci?.[name] ?? [NaN, NaN, 1];
        const excludes = (lower > 0 || upper < 0) && p < 0.01;
        if (changedInTruth(name)) {
          c.aff++;
          const direction = truthOf(name);
          if ((direction > 0 ? lower > 0 : upper < 0) && p < 0.01) c.found++;
          if (verdict === (direction > 0 ? 'regression' : 'improvement')) c.reg++;
        } else {
          c.aa++;
          if (verdict === 'regression' || verdict === 'improvement') c.called++;
          if (excludes) c.excl++;
          if (verdict === 'unchanged') c.un5++;
          if (at2.verdicts[name] === 'unchanged') c.un2++;
        }
      }
      const known = Object.keys(at5.verdicts);
      for (const [raw, changed] of Object.entries(run.usual.changed)) {
        if (changedInTruth(canonical(raw, known))) {
          c.uAff++;
          if (changed) c.uFound++;
        } else {
          c.uAa++;
          if (changed) c.uCalled++;
        }
      }
    }
    const label = runs[0]!.label;
    const injected = kase === 'slow' ? `${c.found}/${c.aff} / ${c.reg}/${c.aff}` : '–';
    out.push(
      `| ${label} | ${condition} | ${kase === 'aa' ? 'A/A' : 'injected'} | ${runs.length} | duetkit suite (duet, budget ${budget} s)${at2only ? `, run at ±${threshold * 100}%` : ''} | ${c.called}/${c.aa} | ${c.excl}/${c.aa} | ${at2only ? '–' : `${c.un5}/${c.aa}`} / ${c.un2}/${c.aa} | ${injected} | ${pct(median(widths), 2)} | ${median(seconds).toFixed(0)} s | ${median(pace).toFixed(1)} | ${efficiency.length === 0 ? '–' : pct(median(efficiency), 0)} |`,
    );
    out.push(
      `| | | | | ${runs[0]!.usual.method.replace(/\|/g, '\\|')} | ${c.uCalled}/${c.uAa} | | – | ${kase === 'slow' ? `${c.uFound}/${c.uAff}` : '–'} | – | ${usualSeconds.length === 0 ? '–' : `${median(usualSeconds).toFixed(0)} s`} | – | – |`,
    );
  }
  return `${out.join('\n')}\n`;
}

/** The ground truth of each suite's injected slowdown, as measured. */
export function renderTruth(truthFile = 'benchmarks/results/suites-truth.json'): string {
  if (!existsSync(truthFile)) return '';
  const truth = JSON.parse(readFileSync(truthFile, 'utf8')) as Record<
    string,
    {
      date: string;
      earlier?: { date: string }[];
      injected: string;
      seconds: number;
      benchmarks: Record<string, { change: number; lower: number; upper: number; pairs: number }>;
    }
  >;
  const lines = [
    '| suite | injected in | benchmark | true change (99% CI) | rounds |',
    '|---|---|---|--:|--:|',
  ];
  for (const [suite, t] of Object.entries(truth)) {
    for (const [name, b] of Object.entries(t.benchmarks)) {
      if (!(b.lower > 0 || b.upper < 0)) continue;
      lines.push(
        `| ${suite} | ${t.injected} | ${name} | ${pct(b.change, 2)} [${pct(b.lower, 2)}, ${pct(b.upper, 2)}] | ${b.pairs} |`,
      );
    }
    const rest = Object.values(t.benchmarks).filter((b) => !(b.lower > 0 || b.upper < 0)).length;
    const when = `measured ${stamp(t.date)}${(t.earlier ?? []).length === 0 ? '' : ` (it replaced the truth of ${t.earlier!.map((e) => stamp(e.date)).join(', ')}, kept for the runs before)`}`;
    lines.push(`| ${suite} | | ${rest} others; ${when} | CI covers 0 | |`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Each run of `suite` scored against its ground truth, run by run (the large suites, whose runs
 * differ in design and settings and are not pooled): of the benchmarks whose true change is
 * beyond ±`threshold` (99% CI excluding 0), how many the run called in the truth's direction;
 * and how many it called whose truth does not support the call (CI covering 0, or the other
 * direction). A/A runs: every call is false.
 */
export function renderScored(
  suite: string,
  threshold = 0.05,
  file = 'benchmarks/results/suites.json',
  truthFile = 'benchmarks/results/suites-truth.json',
): string {
  const entries = (JSON.parse(readFileSync(file, 'utf8')) as ScoredEntry[]).filter(
    (e) => e.suite === suite,
  );
  const truth = (existsSync(truthFile) ? JSON.parse(readFileSync(truthFile, 'utf8')) : {}) as Truth;
  if (truth[suite] === undefined) return `No ground truth for ${suite} in ${truthFile}.\n`;
  // what each truth says: each benchmark's direction, those beyond the threshold, the sure ones
  const said = new Map(truthsOf(truth[suite]).map((t) => [t.date, truthSays(t, threshold)]));
  const says = (t: SuiteTruth) => said.get(t.date)!;
  const used = new Set<string>();
  const lines = [
    `| run (UTC) | case | design | benchmarks | true changes beyond ±${threshold * 100}% called / of | of them, the truth's interval wholly beyond | calls the truth does not support | \`unchanged\` | truth |`,
    '|---|---|---|--:|--:|--:|--:|--:|--:|',
  ];
  for (const e of entries) {
    const t = truthFor(truth[suite], e)!;
    used.add(t.date);
    const { direction, beyond, sure } = says(t);
    const at = e.duetkit.at[0]!;
    const called = (name: string): number => {
      const v = at.verdicts[name];
      return v === 'regression' ? 1 : v === 'improvement' ? -1 : 0;
    };
    const names = Object.keys(at.verdicts);
    const truly = e.case === 'slow' ? beyond.filter((n) => names.includes(n)) : [];
    const found = truly.filter((n) => called(n) === direction(n)).length;
    const surely = truly.filter((n) => sure.has(n));
    const surelyFound = surely.filter((n) => called(n) === direction(n)).length;
    const unsupported = names.filter(
      (n) => called(n) !== 0 && (e.case === 'aa' || called(n) !== direction(n)),
    );
    const unchanged = names.filter((n) => at.verdicts[n] === 'unchanged').length;
    lines.push(
      `| ${e.date.slice(5, 16).replace('T', ' ')} | ${e.case === 'aa' ? 'A/A' : 'injected'} | ${e.mode ?? 'duet'} ${e.suiteSettings ?? ''}${e.note === undefined ? '' : ' †'} | ${names.length} | ${e.case === 'slow' ? `${found} / ${truly.length}` : '–'} | ${e.case === 'slow' ? `${surelyFound} / ${surely.length}` : '–'} | ${unsupported.length}${unsupported.length > 0 && unsupported.length <= 4 ? ` (${unsupported.join(', ')})` : ''} | ${unchanged} | ${stamp(t.date)} |`,
    );
  }
  const listed = truthsOf(truth[suite])
    .filter((t) => used.has(t.date))
    .map((t) => {
      const { beyond, sure } = says(t);
      const names = beyond
        .map(
          (n) =>
            `${n} ${pct(t.benchmarks[n]!.change, 1)}${sure.has(n) ? '' : ` [${pct(t.benchmarks[n]!.lower, 1)}, ${pct(t.benchmarks[n]!.upper, 1)}]`}`,
        )
        .join(', ');
      return `the truth of ${stamp(t.date)}: ${names === '' ? 'none' : names}`;
    })
    .join('; ');
  const notes = [...new Set(entries.flatMap((e) => (e.note === undefined ? [] : [e.note])))];
  const footnote = notes.length === 0 ? '' : `\n† ${notes.join('; ')}.\n`;
  return `${lines.join('\n')}\n${footnote}\nTrue changes beyond ±${threshold * 100}% (with the truth's 99% interval where it reaches inside ±${threshold * 100}%), by ${listed}.\n`;
}

const stamp = (iso: string): string => iso.slice(5, 16).replace('T', ' ');

/**
 * What one truth says, for scoring: each benchmark's direction (its 99% CI excluding 0), the
 * benchmarks whose true change is beyond ±`threshold`, and of those the ones whose own interval
 * lies wholly beyond it: a truth of −14.9% [−25.7%, −2.6%] (itertools' positions/nth_back/4,
 * 40 pairs) does not say that a run reading −2% [−4.5%, −0.2%] is wrong.
 */
function truthSays(t: SuiteTruth, threshold: number) {
  const direction = (name: string): number => {
    const b = t.benchmarks[name];
    return b === undefined ? 0 : b.lower > 0 ? 1 : b.upper < 0 ? -1 : 0;
  };
  const beyond = Object.entries(t.benchmarks)
    .filter(([name, b]) => direction(name) !== 0 && Math.abs(b.change) >= threshold)
    .map(([name]) => name);
  const sure = new Set(
    beyond.filter(
      (n) => t.benchmarks[n]!.lower >= threshold || t.benchmarks[n]!.upper <= -threshold,
    ),
  );
  return { direction, beyond, sure };
}
interface ScoredEntry extends Entry {
  date: string;
  /** The date of the ground truth it is scored against (truthFor). */
  truth?: string;
  /** What sets the run apart (the code it ran, when not the commit's); † in the table. */
  note?: string;
  mode?: string;
  suiteSettings?: string;
}

/** The ablation: each efficiency raise on its own (suites-ablation.json). */
export function renderAblation(file = 'benchmarks/results/suites-ablation.json'): string {
  if (!existsSync(file))
    return 'Not measured yet: `npm run bench:suites -- --suite NAME --ablation`.\n';
  const rows = JSON.parse(readFileSync(file, 'utf8')) as {
    suite: string;
    variant: string;
    benchmarks: number;
    unchanged: number;
    medianPairs: number;
    medianCiWidth: number;
    efficiency: number | null;
    pairsPerSecond: number | null;
    breakdown: { preparation: number; harness: number; process: number; measured: number } | null;
  }[];
  const lines = [
    '| suite | how it runs | benchmarks | pairs/s | efficiency | preparing / between trials / in the process | median pairs per benchmark | median 99% CI width | `unchanged` ±5% |',
    '|---|---|--:|--:|--:|---|--:|--:|--:|',
  ];
  for (const r of rows) {
    const b = r.breakdown;
    lines.push(
      `| ${r.suite} | ${r.variant} | ${r.benchmarks} | ${r.pairsPerSecond?.toFixed(1) ?? '–'} | ${r.efficiency === null ? '–' : pct(r.efficiency, 0)} | ${b === null ? '–' : `${pct(b.preparation, 0)} / ${pct(b.harness, 0)} / ${pct(b.process, 0)}`} | ${r.medianPairs} | ${pct(r.medianCiWidth, 2)} | ${r.unchanged}/${r.benchmarks} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

if (process.argv[1]?.endsWith('render.ts'))
  process.stdout.write(`${renderTruth()}\n${renderSuites()}`);
