/**
 * Fidelity: does what duetkit measures match what really changed? Programs with an exactly
 * known extra amount of work (C, Go, Node; +0%, +1%, +3% more steps of one dependent chain)
 * are measured alone first (ground truth: one at a time, alternating, pinned to one CPU while
 * the other idles), then through every route (driver and way of reading values) and mode.
 * The table reports the bias (measured − truth, percentage points) and whether the 99% CI
 * covers the truth. Run it on a quiet machine:
 *
 *   node --import tsx benchmarks/fidelity.ts [--budget 15] [--truth-seconds 60]
 *       [--routes c-command,go-format] [--sizes 10] [--modes duet,rmit,mct] [--fresh]
 *   node --import tsx benchmarks/fidelity.ts --windows [--route c-command] [--size 10]
 *       [--mode duet] [--keep-busy repeat] [--stagger auto] [--seconds 600] [--window 5]
 *       [--changes 0,0.01]
 *       (one long recording per change, cut into many comparisons: coverage and bias; the
 *       +2% windows are the nightly step duets of bench:variability: --changes 0.02)
 *   node --import tsx benchmarks/fidelity.ts --render  (writes the tables into BENCHMARKS.md)
 *
 * Results: benchmarks/results/fidelity.json (cells are kept, so a run can be resumed).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { abortOnSignals } from '../src/runner/signals.js';
import type { KeepBusy } from '../src/contracts/samples.js';
import type { Mode } from '../src/scenario/schema.js';
import { spliceResults } from './accuracy/report.js';
import { positive } from './args.js';
import { analyzeView, recordCell, variantLabel, type Variant } from './fidelity/measure.js';
import { buildPrograms, measureStepRates, type Programs } from './fidelity/programs.js';
import { renderFidelity, type FidelityResults, type TruthRecord } from './fidelity/render.js';
import { getRoute, ROUTES, stepsFor, type Route } from './fidelity/routes.js';
import { aloneSlot, measureTruth, truthOf } from './fidelity/truth.js';
import { recordWindows } from './fidelity/windows.js';

const OUT = 'benchmarks/results/fidelity.json';
/** Where the tables go in BENCHMARKS.md. */
const MARKERS = { begin: '<!-- fidelity-results:begin -->', end: '<!-- fidelity-results:end -->' };
const CHANGES = [0, 0.01, 0.03];
/** Step rates are measured on this CPU (the truth's slot is the last CPU too). */
const TRUTH_CPU = 1;
/** What a duet of commands does by default (the scenario schema's defaults). */
const DEFAULT_VARIANT: Variant = { keepBusy: 'spin', stagger: 'auto' };
/** The C command route in a duet is also measured the other ways, to show what each does. */
const C_COMMAND_VARIANTS: Variant[] = [
  DEFAULT_VARIANT,
  { keepBusy: 'repeat', stagger: 'auto' },
  { keepBusy: 'off', stagger: 'auto' },
  { keepBusy: 'spin', stagger: 'off' },
];

function flag(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i < 0 ? undefined : argv[i + 1];
}

function list(argv: string[], name: string, fallback: string[]): string[] {
  return flag(argv, name)?.split(',') ?? fallback;
}

const empty = (): FidelityResults => ({
  machine: '',
  rates: null,
  truths: [],
  cells: [],
  windows: [],
});

function load(): FidelityResults {
  if (!existsSync(OUT)) return empty();
  return JSON.parse(readFileSync(OUT, 'utf8')) as FidelityResults;
}

function save(results: FidelityResults): void {
  writeFileSync(OUT, `${JSON.stringify(results, null, 1)}\n`);
}

/** Which variants a cell is measured in: the duet of commands has several. */
function variantsFor(route: Route, mode: Mode, programs: Programs): (Variant | null)[] {
  if (mode !== 'duet' || route.workload(programs).driver === 'persistent') return [null];
  return route.id === 'c-command' ? C_COMMAND_VARIANTS : [DEFAULT_VARIANT];
}

/** The route's ground truth at this size and change, measured once and kept. */
async function ensureTruth(
  results: FidelityResults,
  request: { route: Route; programs: Programs; size: number; change: number; seconds: number },
): Promise<TruthRecord> {
  const { route, size, change } = request;
  const known = results.truths.find(
    (t) => t.route === route.id && t.size === size && t.change === change,
  );
  if (known !== undefined) return known;
  const rates = results.rates!;
  const steps: [number, number] = [
    stepsFor(route, rates, size, 0),
    stepsFor(route, rates, size, change),
  ];
  const alone = await aloneSlot();
  const values = await measureTruth({
    route,
    programs: request.programs,
    steps,
    run: alone.run,
    sizeMs: size,
    seconds: request.seconds,
    seed: 7 + results.truths.length,
  }).finally(() => alone.isolation.dispose());
  const truth: TruthRecord = {
    route: route.id,
    size,
    change,
    steps,
    views: Object.fromEntries(Object.entries(values).map(([view, v]) => [view, truthOf(v, 1)])),
  };
  results.truths.push(truth);
  save(results);
  return truth;
}

async function windows(
  argv: string[],
  results: FidelityResults,
  programs: Programs,
  signal: AbortSignal,
): Promise<void> {
  const route = getRoute(flag(argv, '--route') ?? 'c-command');
  const size = positive('--size', flag(argv, '--size') ?? '10');
  const mode = (flag(argv, '--mode') ?? 'duet') as Mode;
  const variant: Variant = {
    keepBusy: (flag(argv, '--keep-busy') ?? DEFAULT_VARIANT.keepBusy) as KeepBusy,
    stagger: (flag(argv, '--stagger') ?? DEFAULT_VARIANT.stagger) as Variant['stagger'],
  };
  const truthSeconds = positive('--truth-seconds', flag(argv, '--truth-seconds') ?? '60');
  const changes = list(argv, '--changes', CHANGES.slice(0, 2).map(String)).map((c) => {
    const x = Number(c);
    if (!(x >= 0 && x < 1))
      throw new RangeError(`--changes: got ${c}; expected fractions such as 0,0.02`);
    return x;
  });
  for (const change of changes) {
    const truth = await ensureTruth(results, {
      route,
      programs,
      size,
      change,
      seconds: truthSeconds,
    });
    if (signal.aborted) return;
    const record = await recordWindows({
      route,
      programs,
      mode,
      variant,
      steps: truth.steps,
      sizeMs: size,
      budgetSeconds: positive('--seconds', flag(argv, '--seconds') ?? '600'),
      windowSeconds: positive('--window', flag(argv, '--window') ?? '5'),
      seed: 1000 + results.windows.length,
      signal,
      size,
      change,
    });
    results.windows.push({
      ...record,
      variant: mode === 'duet' ? variantLabel(variant) : '',
      loadAverage: os.loadavg()[0]!,
    });
    save(results);
    console.log(
      `${route.id} ${size} ms ${mode} +${change * 100}%: ${record.outcomes.length} windows`,
    );
  }
}

async function cells(
  argv: string[],
  results: FidelityResults,
  programs: Programs,
  signal: AbortSignal,
): Promise<void> {
  const budget = positive('--budget', flag(argv, '--budget') ?? '15');
  const truthSeconds = positive('--truth-seconds', flag(argv, '--truth-seconds') ?? '60');
  const routes = list(
    argv,
    '--routes',
    ROUTES.map((r) => r.id),
  ).map(getRoute);
  const sizes = flag(argv, '--sizes')?.split(',').map(Number);
  const modes = list(argv, '--modes', ['duet', 'rmit', 'mct']) as Mode[];
  let seed = 1 + results.cells.length;
  for (const route of routes) {
    for (const size of route.sizes.filter((s) => sizes === undefined || sizes.includes(s))) {
      for (const change of CHANGES) {
        const truth = await ensureTruth(results, {
          route,
          programs,
          size,
          change,
          seconds: truthSeconds,
        });
        for (const mode of modes) {
          for (const variant of variantsFor(route, mode, programs)) {
            const label = variant === null ? '' : variantLabel(variant);
            const done = results.cells.some(
              (c) =>
                c.route === route.id &&
                c.size === size &&
                c.change === change &&
                c.mode === mode &&
                c.variant === label,
            );
            if (done) continue;
            if (signal.aborted) return;
            const samples = await recordCell({
              route,
              programs,
              mode,
              variant: variant ?? DEFAULT_VARIANT,
              steps: truth.steps,
              sizeMs: size,
              budgetSeconds: budget,
              seed: seed++,
              signal,
            });
            const views = route.views.map((view) => analyzeView(samples, view, 1));
            results.cells.push({
              route: route.id,
              size,
              change,
              mode,
              variant: label,
              loadAverage: os.loadavg()[0]!,
              views,
            });
            save(results);
            const text = views
              .map((v) => {
                const t = truth.views[v.view]!.change;
                return `${v.view} ${(v.change * 100).toFixed(2)}% (truth ${(t * 100).toFixed(2)}%)`;
              })
              .join(', ');
            console.log(`${route.id} ${size} ms +${change * 100}% ${mode} ${label}: ${text}`);
          }
        }
      }
    }
  }
}

async function main(argv: string[]): Promise<void> {
  if (argv.includes('--render')) {
    const section = renderFidelity(load());
    process.stdout.write(section);
    const document = readFileSync('BENCHMARKS.md', 'utf8');
    writeFileSync('BENCHMARKS.md', spliceResults(document, section, MARKERS));
    return;
  }
  const results = argv.includes('--fresh') ? empty() : load();
  results.machine = `${os.cpus()[0]?.model ?? '?'}, ${os.cpus().length} CPUs, ${os.release()}`;
  const programs = buildPrograms(path.join(os.tmpdir(), 'duetkit-fidelity'));
  results.rates ??= measureStepRates(programs, TRUTH_CPU);
  const rates = results.rates;
  console.log(
    `steps per ms: C ${rates.c.toFixed(0)}, Go ${rates.go.toFixed(0)}, Node ${rates.node.toFixed(0)}`,
  );
  const { signal, dispose } = abortOnSignals();
  try {
    if (argv.includes('--windows')) await windows(argv, results, programs, signal);
    else await cells(argv, results, programs, signal);
  } finally {
    dispose();
  }
}

await main(process.argv.slice(2));
