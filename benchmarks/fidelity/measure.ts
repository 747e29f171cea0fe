/**
 * One cell of the fidelity table: a route, an iteration size, an injected change and a mode
 * (and, for a duet of commands, what the side that finishes first does), measured through
 * duetkit's own runner and analysis, read through each of the route's views.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { analyzeSamples } from '../../src/analyze/analyze.js';
import { runScenario } from '../../src/pipeline/local-run.js';
import type { SamplesFile, Trial, KeepBusy } from '../../src/contracts/samples.js';
import { parseScenario } from '../../src/scenario/load.js';
import type { Mode } from '../../src/scenario/schema.js';
import type { Programs } from './programs.js';
import type { Route, View } from './routes.js';

/** How a duet of commands runs: what an early side does, and whether starts are staggered. */
export interface Variant {
  keepBusy: KeepBusy;
  stagger: 'auto' | 'off';
}

/** The variant's name in the results: `repeat`, `spin, stagger off`… */
export function variantLabel(variant: Variant): string {
  return variant.stagger === 'auto' ? variant.keepBusy : `${variant.keepBusy}, stagger off`;
}

export interface CellRequest {
  route: Route;
  programs: Programs;
  mode: Mode;
  variant: Variant;
  steps: [number, number];
  /** Expected ms per iteration: mct plans all its trials up front, so it needs a count. */
  sizeMs: number;
  budgetSeconds: number;
  seed: number;
  signal: AbortSignal;
}

export interface ViewResult {
  view: View;
  change: number;
  lower: number;
  upper: number;
  /** Pairs (paired) or values per side (unpaired). */
  n: number;
}

/** Runs the cell (warm-up 3) until its budget is spent; returns the samples. */
export async function recordCell(request: CellRequest): Promise<SamplesFile> {
  const { route, programs } = request;
  const dir = path.join(programs.dir, 'versions');
  mkdirSync(dir, { recursive: true });
  const env = route.env?.(programs) ?? {};
  const scenario = parseScenario(
    {
      name: `fidelity-${route.id}`,
      mode: request.mode,
      versions: request.steps.map((n, i) => ({
        name: i === 0 ? 'base' : 'head',
        path: '.',
        env: { ...env, N: String(n) },
      })),
      workload: { ...route.workload(programs), ...request.variant },
      // mct runs all of base's trials before head's: a count, not a budget, must end it.
      ...(request.mode === 'mct'
        ? {
            iterations: Math.max(
              10,
              Math.round((request.budgetSeconds * 1000) / (2 * (request.sizeMs + 3))),
            ),
          }
        : { iterations: 1_000_000, budget: request.budgetSeconds }),
      warmup: 3,
      timeout: 60,
      seed: request.seed,
    },
    `fidelity ${route.id}`,
  );
  const samples = await runScenario(
    { scenario, file: null, baseDir: dir },
    { signal: request.signal, env: process.env },
  );
  if (!samples.complete) {
    throw new Error(`${route.id} ${request.mode}: ${samples.stopReason}: ${samples.error}`);
  }
  return samples;
}

/** The comparison of one view of a recording, with duetkit's default statistic. */
export function analyzeView(samples: SamplesFile, view: View, seed: number): ViewResult {
  const reread = view === 'wall' || view === 'reported' ? samples : withMetric(samples, view);
  const report = analyzeSamples(reread, { seed, resamples: 10_000 });
  const result = report.results[0];
  if (result?.comparison == null) {
    throw new Error(
      `${view}: ${result?.error ?? result?.notComparable?.reason ?? 'nothing measured'}`,
    );
  }
  const c = result.comparison;
  return { view, change: c.change, lower: c.ci.lower, upper: c.ci.upper, n: c.n.base };
}

/** The recording with each trial's metric replaced by its CPU time or the harness's view. */
export function withMetric(samples: SamplesFile, view: 'cpu' | 'harness'): SamplesFile {
  const value = (t: Trial): number => {
    const x =
      view === 'cpu' ? t.cpuMs : t.seenEndMs === undefined ? undefined : t.seenEndMs - t.startMs;
    if (x === undefined) throw new Error(`the trials carry no ${view} time`);
    return x;
  };
  return {
    ...samples,
    trials: samples.trials.map((t) => ({
      ...t,
      metrics: [{ name: view, unit: 'ms', biggerIsBetter: false, values: [value(t)] }],
    })),
  };
}
