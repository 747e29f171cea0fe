/**
 * `npm run bench:http -- [--part capacity,overhead,theory,stall,k6] [--seconds N]`: the http
 * driver's load generator measured against known servers (benchmarks/http/server, in Go), the
 * generator on CPU 0 and the server on CPU 1 (taskset):
 *
 * - capacity: the highest Poisson rate one core sustains with a send-lag p99 ≤ 1 ms;
 * - overhead: what it adds to measured latency at 1,000 QPS (a server that answers at once),
 *   next to k6 at the same rate;
 * - theory: an M/M/1 queue at ρ = 0.5 and 0.8, and two replicas behind round-robin (E2/M/1,
 *   exact) and least-outstanding (M/M/2 as the bound), against the closed forms;
 * - stall: a server that stalls for 1 s every 5 s, open loop against closed loop;
 * - k6: the same M/M/1 server at the same constant rate through duetkit and through k6.
 *
 * Results are merged into benchmarks/results/http.json and printed as markdown tables.
 * The accuracy part (duet A/A and +5%) is benchmarks/http/accuracy.ts.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { HistogramSummary } from '../src/load/histogram.js';
import { mm1, mmc, roundRobin, type ResponseTime } from './http/theory.js';
import { disposeSlots, runK6, runPhase, startBenchServer } from './http/tools.js';

const RESULTS = path.join(import.meta.dirname, 'results', 'http.json');
const GENERATOR_CPU = '0';
const SERVER_CPU = '1';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string): string => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1]! : fallback;
};
const parts = flag('--part', 'capacity,overhead').split(',');
const scale = Number(flag('--seconds-scale', '1'));

type Row = Record<string, string | number>;
const results: Record<string, unknown> = existsSync(RESULTS)
  ? (JSON.parse(readFileSync(RESULTS, 'utf8')) as Record<string, unknown>)
  : {};

const ms = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : '–');
const pct = (x: number): string => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;

function table(rows: Row[]): string {
  const keys = Object.keys(rows[0] ?? {});
  return [
    `| ${keys.join(' | ')} |`,
    `|${keys.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${keys.map((k) => String(r[k])).join(' | ')} |`),
  ].join('\n');
}

async function capacity(): Promise<Row[]> {
  const server = await startBenchServer(['-mode', 'fixed'], SERVER_CPU);
  const rows: Row[] = [];
  try {
    for (const qps of [500, 1000, 2000, 3000, 4000, 5000, 6000, 8000, 10000, 12000]) {
      const { result, generatorCpu } = await runPhase(
        {
          stages: [
            { duration: 1, qps, warmup: true },
            { duration: 5 * scale, qps },
          ],
          connections: 256,
        },
        [server.origin],
        GENERATOR_CPU,
        qps,
      );
      const lag = result.sendLag!;
      const t = result.targets[0]!;
      rows.push({
        qps,
        'send lag p50 (ms)': ms(lag.percentiles['50']!),
        'send lag p99 (ms)': ms(lag.percentiles['99']!),
        'latency p50 (ms)': ms(t.latency.percentiles['50']!),
        'latency p99 (ms)': ms(t.latency.percentiles['99']!),
        'answered/s': Math.round(t.ok / result.measuredSeconds),
        'sent on time': `${((result.sentInWindow / result.intended) * 100).toFixed(1)}%`,
        'generator CPU': `${Math.round(generatorCpu * 100)}%`,
        errors: Object.values(t.errors).reduce((a, b) => a + b, 0),
      });
      console.error(JSON.stringify(rows.at(-1)));
      if (lag.percentiles['99']! > 20) break;
    }
  } finally {
    await server.stop();
  }
  return rows;
}

async function overhead(): Promise<Row[]> {
  const server = await startBenchServer(['-mode', 'fixed'], SERVER_CPU);
  const rows: Row[] = [];
  try {
    for (const arrival of ['poisson', 'constant'] as const) {
      const { result, generatorCpu } = await runPhase(
        {
          arrival,
          stages: [
            { duration: 2, qps: 1000, warmup: true },
            { duration: 20 * scale, qps: 1000 },
          ],
          percentiles: [50, 90, 99, 99.9],
        },
        [server.origin],
        GENERATOR_CPU,
      );
      const l = result.targets[0]!.latency;
      rows.push({
        client: `duetkit (${arrival})`,
        'p50 (ms)': ms(l.percentiles['50']!),
        'p90 (ms)': ms(l.percentiles['90']!),
        'p99 (ms)': ms(l.percentiles['99']!),
        'p99.9 (ms)': ms(l.percentiles['99.9']!),
        'mean (ms)': ms(l.meanMs),
        'send lag p50 / p99 (ms)': `${ms(result.sendLag!.percentiles['50']!)} / ${ms(result.sendLag!.percentiles['99']!)}`,
        'client CPU': `${Math.round(generatorCpu * 100)}%`,
      });
    }
    const k6 = await runK6(`${server.origin}/`, 1000, Math.round(20 * scale), GENERATOR_CPU);
    rows.push({
      client: 'k6 (constant-arrival-rate)',
      'p50 (ms)': ms(k6.med!),
      'p90 (ms)': ms(k6['p(90)']!),
      'p99 (ms)': ms(k6['p(99)']!),
      'p99.9 (ms)': ms(k6['p(99.9)']!),
      'mean (ms)': ms(k6.avg!),
      'send lag p50 / p99 (ms)': '(not measured)',
      'client CPU': '–',
    });
  } finally {
    await server.stop();
  }
  return rows;
}

/**
 * Measured against theory: mean, p50, p90, p99 and their relative errors, and the mean once
 * the measurement's own floor (its mean against a server that answers at once, at the same
 * rate) is taken off.
 */
function versus(
  label: string,
  h: HistogramSummary,
  theory: ResponseTime,
  floor: HistogramSummary,
  extra: Row = {},
): Row {
  const cells: Row = { case: label, n: h.count, 'floor mean (ms)': ms(floor.meanMs) };
  for (const [name, measured, expected] of [
    ['mean', h.meanMs, theory.mean * 1000],
    ['p50', h.percentiles['50']!, theory.quantile(0.5) * 1000],
    ['p90', h.percentiles['90']!, theory.quantile(0.9) * 1000],
    ['p99', h.percentiles['99']!, theory.quantile(0.99) * 1000],
  ] as const) {
    cells[`${name}: measured / theory (ms)`] =
      `${ms(measured)} / ${ms(expected)} (${pct(measured / expected - 1)})`;
  }
  const net = h.meanMs - floor.meanMs;
  cells['mean − floor / theory (ms)'] =
    `${ms(net)} / ${ms(theory.mean * 1000)} (${pct(net / (theory.mean * 1000) - 1)})`;
  return { ...cells, ...extra };
}

/** The measurement's own floor at a rate: the same generator against a server that answers at once. */
async function floorAt(qps: number, seconds: number): Promise<HistogramSummary> {
  const server = await startBenchServer(['-mode', 'fixed'], SERVER_CPU);
  try {
    const { result } = await runPhase(
      {
        stages: [
          { duration: 2, qps, warmup: true },
          { duration: seconds, qps },
        ],
        percentiles: [50, 90, 99],
      },
      [server.origin],
      GENERATOR_CPU,
      qps,
    );
    return result.targets[0]!.latency;
  } finally {
    await server.stop();
  }
}

async function theory(): Promise<Row[]> {
  const mu = 200;
  const rows: Row[] = [];
  for (const [lambda, seconds] of [
    [100, 120],
    [160, 240],
  ] as const) {
    const server = await startBenchServer(
      ['-mode', 'mm1', '-mu', String(mu), '-seed', String(lambda)],
      SERVER_CPU,
    );
    try {
      const { result } = await runPhase(
        {
          stages: [
            { duration: 5, qps: lambda, warmup: true },
            { duration: seconds * scale, qps: lambda },
          ],
          percentiles: [50, 90, 99],
        },
        [server.origin],
        GENERATOR_CPU,
        lambda,
      );
      rows.push(
        versus(
          `M/M/1, μ = ${mu}/s, λ = ${lambda}/s (ρ = ${lambda / mu})`,
          result.targets[0]!.latency,
          mm1(lambda, mu),
          await floorAt(lambda, 30 * scale),
        ),
      );
      console.error(JSON.stringify(rows.at(-1)));
    } finally {
      await server.stop();
    }
  }
  for (const balance of ['round-robin', 'least-outstanding'] as const) {
    const servers = [
      await startBenchServer(['-mode', 'mm1', '-mu', String(mu), '-seed', '11'], SERVER_CPU, 2),
    ];
    try {
      const lambda = 200;
      const { result } = await runPhase(
        {
          balance,
          stages: [
            { duration: 5, qps: lambda, warmup: true },
            { duration: 120 * scale, qps: lambda },
          ],
          percentiles: [50, 90, 99],
        },
        servers[0]!.origins,
        GENERATOR_CPU,
        7,
      );
      const theoryOf = balance === 'round-robin' ? roundRobin(lambda, mu, 2) : mmc(lambda, mu, 2);
      rows.push(
        versus(
          `2 replicas, ${balance}, μ = ${mu}/s each, λ = ${lambda}/s: ${balance === 'round-robin' ? 'E2/M/1 per replica' : 'M/M/2 (a lower bound)'}`,
          result.targets[0]!.latency,
          theoryOf,
          await floorAt(lambda, 30 * scale),
          { 'requests per replica': result.targets[0]!.perReplica.join(' / ') },
        ),
      );
      console.error(JSON.stringify(rows.at(-1)));
    } finally {
      for (const s of servers) await s.stop();
    }
  }
  return rows;
}

async function stall(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const arrival of ['poisson', 'closed'] as const) {
    const server = await startBenchServer(
      ['-mode', 'stall', '-stall-every', '5s', '-stall-for', '1s'],
      SERVER_CPU,
    );
    try {
      const { result } = await runPhase(
        {
          arrival,
          concurrency: 8,
          stages: [{ duration: 30 * scale, qps: 200 }],
          percentiles: [50, 90, 99, 99.9],
          timeout: 5,
        },
        [server.origin],
        GENERATOR_CPU,
      );
      const l = result.targets[0]!.latency;
      rows.push({
        measurement:
          arrival === 'closed' ? 'closed loop, 8 users' : 'duetkit open loop, Poisson 200/s',
        requests: l.count,
        'p50 (ms)': ms(l.percentiles['50']!),
        'p90 (ms)': ms(l.percentiles['90']!),
        'p99 (ms)': ms(l.percentiles['99']!),
        'p99.9 (ms)': ms(l.percentiles['99.9']!),
        'max (ms)': ms(l.maxMs),
      });
      console.error(JSON.stringify(rows.at(-1)));
    } finally {
      await server.stop();
    }
  }
  rows.push({
    measurement: 'theory for the open loop (20% of arrivals wait U(0, 1 s))',
    requests: '',
    'p50 (ms)': ms(0),
    'p90 (ms)': ms(500),
    'p99 (ms)': ms(950),
    'p99.9 (ms)': ms(995),
    'max (ms)': ms(1000),
  });
  return rows;
}

async function k6(): Promise<Row[]> {
  const rows: Row[] = [];
  const mu = 200;
  const rate = 100;
  const seconds = Math.round(60 * scale);
  const server = await startBenchServer(
    ['-mode', 'mm1', '-mu', String(mu), '-seed', '5'],
    SERVER_CPU,
  );
  try {
    const { result } = await runPhase(
      {
        arrival: 'constant',
        stages: [
          { duration: 2, qps: rate, warmup: true },
          { duration: seconds, qps: rate },
        ],
        percentiles: [50, 90, 95, 99],
      },
      [server.origin],
      GENERATOR_CPU,
    );
    const d = result.targets[0]!.latency;
    const k = await runK6(`${server.origin}/`, rate, seconds, GENERATOR_CPU);
    for (const [stat, ours, theirs] of [
      ['mean', d.meanMs, k.avg!],
      ['p50', d.percentiles['50']!, k.med!],
      ['p90', d.percentiles['90']!, k['p(90)']!],
      ['p95', d.percentiles['95']!, k['p(95)']!],
      ['p99', d.percentiles['99']!, k['p(99)']!],
    ] as const) {
      rows.push({
        statistic: stat,
        'duetkit (ms)': ms(ours),
        'k6 (ms)': ms(theirs),
        difference: pct(ours / theirs - 1),
      });
    }
    rows.push({
      statistic: 'requests',
      'duetkit (ms)': d.count,
      'k6 (ms)': k.count!,
      difference: '',
    });
  } finally {
    await server.stop();
  }
  return rows;
}

const PARTS: Record<string, () => Promise<Row[]>> = { capacity, overhead, theory, stall, k6 };

try {
  await runParts();
} finally {
  await disposeSlots();
}

async function runParts(): Promise<void> {
  for (const part of parts) {
    const run = PARTS[part];
    if (run === undefined)
      throw new RangeError(`--part: got ${part}; expected ${Object.keys(PARTS).join(', ')}`);
    const rows = await run();
    results[part] = {
      date: new Date().toISOString(),
      machine: `${os.cpus()[0]?.model ?? 'cpu'}, ${os.cpus().length} CPUs, load ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
      rows,
    };
    console.log(`\n### ${part}\n\n${table(rows)}\n`);
    writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
  }
}
