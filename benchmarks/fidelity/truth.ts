/**
 * Ground truth without duetkit's runner: base and head of a route run alone, one at a time,
 * alternating in a random order per round, on one CPU while the other stays idle (the
 * benchmark script itself is pinned there). Commands are timed by hyperfine (a third-party
 * tool); self-timed programs report their own values; protocol servers are driven by a small
 * client on their CPU. Everything runs inside one CPU slot of duetkit's isolation (a cpuset
 * with the largest CPU weight), so that other work on a shared machine gets little of it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chooseIsolation } from '../../src/isolation/choose.js';
import type { Isolation } from '../../src/isolation/types.js';
import { startGated } from '../../src/process/gated-process.js';
import { compare } from '../../src/stats/compare.js';
import type { Programs } from './programs.js';
import type { Route, View } from './routes.js';

export interface TruthValues {
  base: number[];
  head: number[];
}

/** The change measured alone: ratio of medians − 1, with its 99% bootstrap CI. */
export interface Truth {
  change: number;
  lower: number;
  upper: number;
  n: number;
}

/** Runs a command to its end inside the truth's CPU slot; resolves with its stdout. */
export type RunAlone = (argv: string[], env: NodeJS.ProcessEnv) => Promise<string>;

/** One CPU slot (cpuset + largest weight) with this process pinned to the other CPU. */
export async function aloneSlot(): Promise<{ run: RunAlone; isolation: Isolation }> {
  const isolation = await chooseIsolation('cpuset', { slotCount: 1, cpuWeight: true });
  const placement = isolation.place(0);
  const run: RunAlone = async (argv, env) => {
    const child = await startGated(argv, {
      cwd: process.cwd(),
      env,
      placement,
      flag: '/',
      stdin: 'ignore',
    });
    await child.prime();
    const result = await child.finished;
    if (result.code !== 0) {
      throw new Error(
        `${argv.join(' ')} exited with ${result.code ?? result.signal}: ${result.stderr}`,
      );
    }
    return result.stdout;
  };
  return { run, isolation };
}

export interface TruthRequest {
  route: Route;
  programs: Programs;
  /** Chain steps of base and head (the N of their environment). */
  steps: [number, number];
  run: RunAlone;
  /** Expected ms per iteration, to size the rounds to `seconds`. */
  sizeMs: number;
  seconds: number;
  seed: number;
}

/** Measures the route's values alone; one entry per view the route has. */
export async function measureTruth(
  request: TruthRequest,
): Promise<Partial<Record<View, TruthValues>>> {
  const { route, programs } = request;
  const env = (n: number): NodeJS.ProcessEnv => ({
    ...process.env,
    ...route.env?.(programs),
    N: String(n),
  });
  const truth = route.truth;
  if (truth.kind === 'hyperfine') {
    const runs = 10;
    const rounds = roundsFor(request, runs);
    const wall: TruthValues = { base: [], head: [] };
    const cpu: TruthValues = { base: [], head: [] };
    const dir = mkdtempSync(path.join(os.tmpdir(), 'duetkit-fidelity-'));
    try {
      await forEachRound(rounds, request.seed, async (side) => {
        const json = path.join(dir, 'h.json');
        await request.run(
          [
            'hyperfine',
            '-N',
            '--style',
            'none',
            '--warmup',
            '1',
            '--runs',
            String(runs),
            '--export-json',
            json,
            truth.argv(programs).join(' '),
          ],
          env(request.steps[side]),
        );
        const result = (
          JSON.parse(readFileSync(json, 'utf8')) as {
            results: { times: number[]; user: number; system: number }[];
          }
        ).results[0]!;
        const key = side === 0 ? 'base' : 'head';
        wall[key].push(...result.times.map((s) => s * 1000));
        cpu[key].push((result.user + result.system) * 1000);
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return { wall, cpu, harness: wall };
  }
  if (truth.kind === 'self-reported') {
    const values: TruthValues = { base: [], head: [] };
    await forEachRound(roundsFor(request, 1), request.seed, async (side) => {
      const out = await request.run(truth.argv(programs), env(request.steps[side]));
      values[side === 0 ? 'base' : 'head'].push(parseValue(out, truth.parse));
    });
    return { reported: values };
  }
  const spec = {
    servers: request.steps.map((n) => ({
      argv: truth.argv(programs),
      env: { ...route.env?.(programs), N: String(n) },
    })),
    rounds: roundsFor(request, 1),
    clock: truth.clock,
    seed: request.seed,
  };
  const out = await request.run(
    [
      programs.nodeBin,
      path.resolve('benchmarks/fidelity/protocol-client.mjs'),
      JSON.stringify(spec),
    ],
    process.env,
  );
  const { values } = JSON.parse(out) as { values: [number[], number[]] };
  return { reported: { base: values[0], head: values[1] } };
}

/** Ratio of medians − 1 with a 99% bootstrap CI (each side resampled on its own). */
export function truthOf(values: TruthValues, seed: number): Truth {
  const c = compare(values.base, values.head, {
    paired: false,
    level: 0.99,
    statistic: 'median',
    seed,
  });
  return { change: c.change, lower: c.ci.lower, upper: c.ci.upper, n: values.base.length };
}

function roundsFor(request: TruthRequest, perRound: number): number {
  const perRoundMs = 2 * perRound * (request.sizeMs + 2);
  return Math.max(10, Math.round((request.seconds * 1000) / perRoundMs));
}

/** Calls `run(0)` and `run(1)` once per round, in a seeded random order. */
async function forEachRound(
  rounds: number,
  seed: number,
  run: (side: 0 | 1) => Promise<void>,
): Promise<void> {
  let state = seed >>> 0 || 1;
  for (let round = 0; round < rounds; round++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const first = (state >>> 31) as 0 | 1;
    await run(first);
    await run((1 - first) as 0 | 1);
  }
}

function parseValue(out: string, parse: 'jsonl' | 'go'): number {
  if (parse === 'jsonl')
    return (JSON.parse(out.trim().split('\n').at(-1)!) as { value: number }).value;
  const ns = /BenchmarkWork\S*\s+\d+\s+([\d.]+) ns\/op/.exec(out)?.[1];
  if (ns === undefined) throw new Error(`no ns/op in the Go benchmark's output:\n${out}`);
  return Number(ns) / 1e6;
}
