/**
 * Measures what the harness itself costs, on this machine:
 *  - start skew of paired duet iterations (stagger off): |start of side A − side B| as the
 *    timers stamp it, and as the processes see it (a tiny C program reads CLOCK_MONOTONIC
 *    first thing; the same clock as Node's hrtime). Goal: median ≤ 100 µs.
 *  - per-iteration overhead of the command driver (spawn + cgroup move + gate, outside the
 *    measurement, and gate-to-exit of a program that does nothing, inside it);
 *  - per-iteration overhead of the persistent protocol (go → reply round trip) for a server in
 *    sh and one using the Node helper.
 * Run: node --import tsx benchmarks/harness-overhead.ts [iterations]
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runScenario } from '../src/pipeline/local-run.js';
import type { SamplesFile } from '../src/contracts/samples.js';
import { parseScenario } from '../src/scenario/load.js';
import type { ScenarioInput } from '../src/scenario/schema.js';
import { median, quantile } from '../src/stats/descriptive.js';

const iterations = Number(process.argv[2] ?? 200);

const C_STAMP = `#include <stdio.h>
#include <time.h>
int main(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  printf("{\\"name\\": \\"started\\", \\"value\\": %.6f}\\n", t.tv_sec * 1e3 + t.tv_nsec / 1e6);
  return 0;
}
`;

const SH_SERVER = `echo '{"ready": true}'
while read cmd; do [ "$cmd" = exit ] && exit 0; echo '{"ok": true}'; done
`;

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'duetkit-overhead-'));
  try {
    await writeFile(path.join(dir, 'stamp.c'), C_STAMP);
    execFileSync('cc', ['-O2', '-o', path.join(dir, 'stamp'), path.join(dir, 'stamp.c')]);
    await writeFile(path.join(dir, 'server.sh'), SH_SERVER);
    await writeFile(path.join(dir, 'package.json'), '{"type": "module"}');
    await writeFile(
      path.join(dir, 'helper.ts'),
      `import { serve } from ${JSON.stringify(path.resolve('src/harness/index.ts'))};\nawait serve(() => undefined, { selfTimed: false });\n`,
    );
    const tsx = pathToFileURL(path.resolve('node_modules/tsx/dist/loader.mjs')).href;

    // Stagger off: this measures how closely the barrier starts both sides.
    const duet = await measure(dir, {
      workload: { command: './stamp', format: 'jsonl', stagger: 'off' },
    });
    const harnessSkew = pairs(duet).map(([a, b]) => Math.abs(a.startMs - b.startMs) * 1000);
    const childSkew = pairs(duet).map(([a, b]) => Math.abs(value(a) - value(b)) * 1000);
    const releaseToStart = duet.trials.map(
      (t) =>
        (value(t) - value(duet.trials[0]!)) * 1000 - (t.startMs - duet.trials[0]!.startMs) * 1000,
    );
    const elapsed = duet.trials.at(-1)!.endMs - duet.trials[0]!.startMs;

    const empty = await measure(dir, { workload: { command: 'true' } });
    const sh = await measure(dir, { workload: { driver: 'persistent', command: 'sh server.sh' } });
    const node = await measure(dir, {
      workload: { driver: 'persistent', command: `node --import ${tsx} helper.ts` },
    });

    const iso = duet.isolation;
    console.log(
      `machine: ${duet.machine.cpuModel}, ${duet.machine.cores} CPUs, kernel ${duet.machine.kernel}, load ${duet.machine.loadAverage.join(' ')}`,
    );
    console.log(
      `isolation: ${iso.kind} [${iso.slots.join(' | ')}], harness CPUs: ${iso.harnessCpus ?? 'shared'}; ${iterations} iterations each\n`,
    );
    row('duet start skew, stamped by the timers (µs)', harnessSkew);
    row('duet start skew, seen by the processes (µs)', childSkew);
    row('timer stamp → process running, incl. exec (µs)', relative(releaseToStart));
    console.log(
      `${'command driver: whole iteration incl. spawn (ms)'.padEnd(52)} mean ${(elapsed / (duet.trials.length / 2)).toFixed(2)}`,
    );
    row(
      'command driver: spawn → exit of `true` (µs)',
      empty.trials.map((t) => t.wallMs * 1000),
    );
    row(
      'persistent, sh server: go → reply (µs)',
      sh.trials.map((t) => t.wallMs * 1000),
    );
    row(
      'persistent, Node helper: go → reply (µs)',
      node.trials.map((t) => t.wallMs * 1000),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function measure(dir: string, input: Partial<ScenarioInput>): Promise<SamplesFile> {
  const scenario = parseScenario({
    versions: [
      { name: 'a', path: '.' },
      { name: 'b', path: '.' },
    ],
    workload: { command: 'true' },
    iterations,
    warmup: 5,
    seed: 1,
    ...input,
  });
  return runScenario(
    { scenario, file: null, baseDir: dir },
    { signal: new AbortController().signal, env: process.env },
  ).then((samples) => {
    if (samples.error !== null) throw new Error(samples.error);
    samples.trials = samples.trials.filter((t) => !t.warmup);
    return samples;
  });
}

type Trial = SamplesFile['trials'][number];

function pairs(samples: SamplesFile): [Trial, Trial][] {
  const byRound = new Map<number, Trial[]>();
  for (const t of samples.trials) byRound.set(t.round, [...(byRound.get(t.round) ?? []), t]);
  return [...byRound.values()].map((ts) => [ts[0]!, ts[1]!]);
}

function value(trial: Trial): number {
  return trial.metrics[0]!.values[0]!;
}

/** Offsets are only known up to a constant (clock origins differ by the first trial's latency). */
function relative(xs: number[]): number[] {
  const min = Math.min(...xs);
  return xs.map((x) => x - min);
}

function row(label: string, xs: number[]): void {
  const f = (x: number): string => x.toFixed(1).padStart(9);
  console.log(
    `${label.padEnd(52)} median ${f(median(xs))}  p90 ${f(quantile(xs, 0.9))}  max ${f(Math.max(...xs))}`,
  );
}

await main();
