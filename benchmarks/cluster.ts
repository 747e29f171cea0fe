// The quickstart in a cluster against the quickstart on the runner (issue 15), on this
// machine's real single-node Kubernetes (tests/support/k8s/cluster.ts):
//  - verdicts: scenarios/quickstart.yml (runner, duet) and scenarios/quickstart-cluster.yml
//    (cluster, RMIT on one exclusive CPU) should agree, and their A/A versions be unchanged;
//  - overhead of the cluster path: time from the start of `duetkit run` to the first pair
//    (the runner's and the cluster's), and its parts (pod start, copy);
//  - quietness: the spread of the pairs' log ratios, runner (duet and RMIT, cpuset) against
//    cluster (RMIT on the pod's exclusive CPU).
// Run it on a quiet machine, after `npm run bundle` (the pod gets the repository's dist/):
//   flock -x /work/wt/.cpu.lock npm run bench:cluster [REPEATS]
//   (writes benchmarks/results/cluster.json)
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { main } from '../src/cli/main.js';
import type { CliContext } from '../src/cli/context.js';
import type { SamplesFile } from '../src/contracts/samples.js';
import type { ComparisonReport } from '../src/contracts/comparison.js';
import { startCluster } from '../tests/support/k8s/cluster.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const work = mkdtempSync(path.join(os.tmpdir(), 'duetkit-bench-cluster-'));
const repeats = Number(process.argv[2] ?? 2);

interface Row {
  case: string;
  path: 'runner' | 'cluster';
  mode: string;
  repeat: number;
  verdicts: Record<string, string>;
  changes: Record<string, number>;
  halfWidths: Record<string, number>;
  /** Robust spread (1.4826·MAD) of the pairs' log ratios, per benchmark. */
  pairSpread: Record<string, number>;
  pairs: number;
  toFirstPairS: number | null;
  podStartS: number | null;
  copyS: number | null;
  totalS: number;
}

/** A scenario from a file, its versions made absolute, with changes, written to `work`. */
function variant(file: string, name: string, change: (s: Record<string, unknown>) => void): string {
  const scenario = parse(readFileSync(path.join(ROOT, file), 'utf8')) as Record<string, unknown>;
  for (const v of scenario.versions as { path?: string }[]) {
    if (v.path !== undefined) v.path = path.resolve(ROOT, 'scenarios', v.path);
  }
  change(scenario);
  const out = path.join(work, `${name}.yml`);
  writeFileSync(out, stringify(scenario));
  return out;
}

async function runCase(
  caseName: string,
  file: string,
  repeat: number,
  env: NodeJS.ProcessEnv,
): Promise<Row> {
  const out = path.join(work, `${caseName}-${repeat}`);
  const errors: string[] = [];
  const ctx: CliContext = {
    stdout: () => undefined,
    stderr: (text: string) => void errors.push(text),
    cwd: ROOT,
    env,
    isTTY: false,
    exitCode: 0,
  };
  const started = Date.now();
  const code = await main(['run', file, '--out', out, '--seed', String(1000 + repeat)], ctx);
  const total = (Date.now() - started) / 1000;
  if (code !== 0) {
    throw new Error(`${caseName}: duetkit run exited ${code}:\n${errors.join('').slice(-4000)}`);
  }
  const samples = JSON.parse(readFileSync(path.join(out, 'samples.json'), 'utf8')) as SamplesFile;
  const report = JSON.parse(
    readFileSync(path.join(out, 'comparison.json'), 'utf8'),
  ) as ComparisonReport;
  const firstRound = samples.trials.filter((t) => t.round === samples.trials[0]!.round);
  const firstEnd = Date.parse(samples.startedAt) + Math.max(...firstRound.map((t) => t.endMs));
  const row: Row = {
    case: caseName,
    path: samples.cluster === undefined ? 'runner' : 'cluster',
    mode: samples.mode,
    repeat,
    verdicts: {},
    changes: {},
    halfWidths: {},
    pairSpread: {},
    pairs: 0,
    toFirstPairS: samples.cluster?.timings.toFirstPair ?? (firstEnd - started) / 1000,
    podStartS: samples.cluster?.timings.podStart ?? null,
    copyS: samples.cluster?.timings.copy ?? null,
    totalS: total,
  };
  for (const r of report.results) {
    if (r.comparison === null) continue;
    row.verdicts[r.benchmark] = r.comparison.verdict;
    row.changes[r.benchmark] = r.comparison.change;
    row.halfWidths[r.benchmark] = (r.comparison.ci.upper - r.comparison.ci.lower) / 2;
    row.pairSpread[r.benchmark] = pairSpread(samples, r.benchmark);
  }
  row.pairs = samples.trials.filter((t) => !t.warmup).length / 2;
  process.stdout.write(`${JSON.stringify(row)}\n`);
  return row;
}

/** 1.4826·MAD of log(head/base) over the measured rounds: the noise a pair leaves. */
function pairSpread(samples: SamplesFile, benchmark: string): number {
  const byRound = new Map<number, number[]>();
  for (const t of samples.trials) {
    if (t.warmup) continue;
    const value = t.metrics.find((m) => m.name === benchmark)?.values[0];
    if (value === undefined) continue;
    const pair = byRound.get(t.round) ?? [];
    pair[t.version] = value;
    byRound.set(t.round, pair);
  }
  const logs = [...byRound.values()]
    .filter((p) => p[0] !== undefined && p[1] !== undefined)
    .map((p) => Math.log(p[1]! / p[0]!));
  const median = (xs: number[]): number => {
    const s = [...xs].sort((a, b) => a - b);
    const m = s.length >> 1;
    return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
  };
  const mid = median(logs);
  return 1.4826 * median(logs.map((x) => Math.abs(x - mid)));
}

const cluster = await startCluster();
try {
  const env = { ...process.env, KUBECONFIG: cluster.kubeconfigFile };
  const aa = (s: Record<string, unknown>): void => {
    const versions = s.versions as { name: string; path: string }[];
    versions[1]!.path = versions[0]!.path;
  };
  const rmit = (s: Record<string, unknown>): void => void (s.mode = 'rmit');
  const cases: [string, string][] = [
    ['runner-duet', variant('scenarios/quickstart.yml', 'runner-duet', () => undefined)],
    ['runner-rmit', variant('scenarios/quickstart.yml', 'runner-rmit', rmit)],
    ['cluster-rmit', variant('scenarios/quickstart-cluster.yml', 'cluster-rmit', () => undefined)],
    ['runner-duet-aa', variant('scenarios/quickstart.yml', 'runner-duet-aa', aa)],
    ['cluster-rmit-aa', variant('scenarios/quickstart-cluster.yml', 'cluster-rmit-aa', aa)],
  ];
  const rows: Row[] = [];
  for (let repeat = 0; repeat < repeats; repeat++) {
    for (const [name, file] of cases) rows.push(await runCase(name, file, repeat, env));
  }
  const out = path.join(ROOT, 'benchmarks/results/cluster.json');
  writeFileSync(
    out,
    `${JSON.stringify({ machine: `${os.cpus()[0]?.model} × ${os.cpus().length}`, repeats, rows }, null, 2)}\n`,
  );
  process.stdout.write(`written: ${out}\n`);
} finally {
  await cluster.stop();
  rmSync(work, { recursive: true, force: true });
}
