/**
 * `npm run bench:http-accuracy -- --change 0|5 [--comparisons 20] [--iterations 16]`: duet
 * comparisons of an HTTP service (benchmarks/http/accuracy-server.mjs) in the accuracy
 * benchmark's style: each comparison a fresh `duetkit run` (both versions' servers at once,
 * each on its CPU, the same Poisson arrivals for both), every percentile of every request its
 * own metric with Holm across them. With --change 0 (A/A) it counts comparisons where any
 * metric was called changed (false positives at the 99% level); with --change 5 the head's
 * /a does 5% more work per request: found when an /a metric is called slower, and "only
 * there" when no /b metric is called changed. Results: benchmarks/results/http-accuracy-<change>.json
 * (`-<change>-i<iterations>.json` with other than 16 iterations).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { analyzeSamples } from '../../src/analyze/analyze.js';
import { runScenario } from '../../src/pipeline/local-run.js';
import { parseScenario } from '../../src/scenario/load.js';
import { wilsonInterval } from '../../src/stats/proportion.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string): string => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1]! : fallback;
};
const change = Number(flag('--change', '0'));
const comparisons = Number(flag('--comparisons', '20'));
const iterations = Number(flag('--iterations', '16'));
const ROUNDS = 300000;
const dir = import.meta.dirname;

interface Outcome {
  seed: number;
  called: { benchmark: string; change: number }[];
  estimates: Record<string, number>;
  invalid: number;
  pairs: number;
}

const outcomes: Outcome[] = [];
for (let c = 0; c < comparisons; c++) {
  const seed = 1000 + c;
  const scenario = parseScenario({
    name: `http-accuracy-${change}`,
    mode: 'duet',
    versions: [
      { name: 'base', path: '.', env: { A_ROUNDS: String(ROUNDS) } },
      {
        name: 'head',
        path: '.',
        env: { A_ROUNDS: String(Math.round(ROUNDS * (1 + change / 100))) },
      },
    ],
    workload: {
      driver: 'http',
      server: { command: 'node accuracy-server.mjs', ready: { http: '/healthz' } },
      load: {
        stages: [
          { duration: 0.5, qps: 150, warmup: true },
          { duration: 1.5, qps: 150 },
        ],
        mix: [{ path: '/a' }, { path: '/b' }],
        percentiles: [50, 90, 99],
      },
    },
    iterations,
    warmup: 1,
    seed,
  });
  const samples = await runScenario(
    { scenario, file: null, baseDir: dir },
    { signal: new AbortController().signal, env: process.env },
  );
  if (samples.error !== null) throw new Error(samples.error);
  const report = analyzeSamples(samples);
  const called = report.results.flatMap((r) => {
    const c = r.comparison;
    if (c === null) return [];
    const excludes = c.ci.lower > 0 || c.ci.upper < 0;
    return excludes && c.test.pValueAdjusted < 1 - c.ci.level
      ? [{ benchmark: r.benchmark, change: c.change }]
      : [];
  });
  const estimates = Object.fromEntries(
    report.results.flatMap((r) =>
      r.comparison === null ? [] : [[r.benchmark, r.comparison.change]],
    ),
  );
  outcomes.push({
    seed,
    called,
    estimates,
    invalid: report.load?.invalid.length ?? 0,
    pairs: report.results[0]?.comparison?.n.base ?? 0,
  });
  console.error(
    `${c + 1}/${comparisons}: called ${JSON.stringify(called.map((x) => x.benchmark))}, /a mean ${(estimates['GET /a mean']! * 100).toFixed(2)}%, /b mean ${(estimates['GET /b mean']! * 100).toFixed(2)}%, invalid ${outcomes.at(-1)!.invalid}`,
  );
}

const any = outcomes.filter((o) => o.called.length > 0).length;
const aFound = outcomes.filter((o) =>
  o.called.some((x) => x.benchmark.startsWith('GET /a') && x.change > 0),
).length;
const bCalled = outcomes.filter((o) =>
  o.called.some((x) => x.benchmark.startsWith('GET /b')),
).length;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const summary = {
  change,
  comparisons,
  iterations,
  anyCalled: any,
  anyCalledWilson: wilsonInterval(any, comparisons, 0.95),
  aFoundSlower: aFound,
  bCalled,
  medianEstimates: Object.fromEntries(
    Object.keys(outcomes[0]!.estimates).map((k) => [
      k,
      median(outcomes.map((o) => o.estimates[k]!)),
    ]),
  ),
  medianPairs: median(outcomes.map((o) => o.pairs)),
  invalidIterations: outcomes.reduce((a, o) => a + o.invalid, 0),
  outcomes,
};
writeFileSync(
  path.join(
    dir,
    '..',
    'results',
    `http-accuracy-${change}${iterations === 16 ? '' : `-i${iterations}`}.json`,
  ),
  `${JSON.stringify(summary, null, 2)}\n`,
);
console.log(JSON.stringify({ ...summary, outcomes: undefined }, null, 2));
