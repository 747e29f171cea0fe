// The EKS fault matrix (issue 15): every AWS call of a cluster's life failed in turn — 5xx,
// throttling, a connection reset, a response slower than the request timeout, each once and
// persistently — with slow CREATING/DELETING phases, and the process killed (SIGTERM, then
// SIGKILL; SIGKILL alone) at every call of `duetkit cluster create`. After the run's own
// cleanup, the post step (`cluster delete --state`) and `cluster reap`, ListClusters must show
// 0 duetkit clusters every time. moto is the EKS API; the proxy is tests/support/fault-proxy.ts.
//   npm run bench:cluster-faults   (writes benchmarks/results/cluster-faults.json)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cleanUpState } from '../src/cluster/cleanup.js';
import { eksProvider } from '../src/cluster/eks.js';
import { reap } from '../src/cluster/eks-reap.js';
import { clusterSchema } from '../src/cluster/schema.js';
import { createStateRecorder, type ClusterState } from '../src/cluster/state.js';
import { startFaultProxy, type Fault } from '../tests/support/fault-proxy.js';
import { startMoto } from '../tests/support/moto.js';
import {
  duetkitLeftovers,
  eksEnv,
  eksSpec,
  killCase,
  motoClients,
} from '../tests/support/eks-harness.js';

const CREATE_OPS = [
  'DescribeInstanceTypes',
  'CreateLaunchTemplate',
  'CreateCluster',
  'DescribeCluster',
  'CreateNodegroup',
  'DescribeNodegroup',
];
const DELETE_OPS = [
  'ListNodegroups',
  'DeleteNodegroup',
  'DescribeNodegroup',
  'DeleteCluster',
  'DescribeCluster',
  'DescribeLaunchTemplates',
  'DeleteLaunchTemplate',
];
const FAULTS: { name: string; fault: Fault; every: boolean }[] = [
  {
    name: '500 once',
    fault: { kind: 'status', status: 500, code: 'ServerException' },
    every: false,
  },
  {
    name: 'throttled once',
    fault: { kind: 'status', status: 429, code: 'ThrottlingException' },
    every: false,
  },
  { name: 'reset once', fault: { kind: 'reset' }, every: false },
  { name: 'answer after the timeout once', fault: { kind: 'late', ms: 6000 }, every: false },
  {
    name: '503 always',
    fault: { kind: 'status', status: 503, code: 'ServiceUnavailableException' },
    every: true,
  },
  {
    name: 'AccessDenied always',
    fault: { kind: 'status', status: 403, code: 'AccessDeniedException' },
    every: true,
  },
];

interface Outcome {
  kind: 'fault' | 'kill';
  phase: string;
  op: string;
  fault: string;
  slow: boolean;
  runError: string | null;
  afterRun: number;
  afterPost: number;
  afterReap: number;
  templatesLeft: number;
}

const moto = await startMoto();
const proxy = await startFaultProxy(moto.url);
const dir = mkdtempSync(path.join(os.tmpdir(), 'duetkit-faults-'));
const outcomes: Outcome[] = [];
let runs = 0;
const started = Date.now();

/** One fault case in-process: acquire (+ release), then the post step, then reap. */
async function faultCase(
  phase: 'create' | 'delete',
  op: string,
  f: (typeof FAULTS)[number],
  slow: boolean,
): Promise<void> {
  proxy.reset();
  proxy.slowPhases = slow ? { cluster: 3, nodegroup: 3 } : { cluster: 0, nodegroup: 0 };
  const rule = { op, nth: f.every ? ('every' as const) : 1, fault: f.fault };
  if (phase === 'create') proxy.rules = [rule];
  const runId = `f${++runs}`;
  let saved: ClusterState = { schemaVersion: 1, runId, provider: 'eks' };
  const state = createStateRecorder(saved, (s) => void (saved = s));
  let runError: string | null = null;
  try {
    const acquired = await eksProvider.acquire({
      spec: clusterSchema.parse(eksSpec(proxy.url)),
      runId,
      baseDir: dir,
      env: eksEnv({ DUETKIT_AWS_REQUEST_TIMEOUT_MS: '5000' }),
      signal: new AbortController().signal,
      state,
      log: () => undefined,
      repository: 'octo/bench',
      expiresAt: new Date(Date.now() + 3600_000),
      cpus: 1,
    });
    if (phase === 'delete') proxy.rules = [rule];
    await acquired.release();
  } catch (error) {
    runError = (error as Error).message.split('\n')[0]!;
  }
  const clients = motoClients(moto.url);
  // Only this case's resources count (its run id), so that one leak is counted once.
  const mine = async (): Promise<{ clusters: number; templates: number }> => {
    const left = await duetkitLeftovers(clients);
    const own = (name: string): boolean => name === `duetkit-${runId}`;
    return {
      clusters: left.clusters.filter(own).length,
      templates: left.templates.filter(own).length,
    };
  };
  const afterRun = (await mine()).clusters;
  // The post step: what the saved state names, with AWS answering again (a persistent fault
  // would fail the post step too; reap is the net for that).
  proxy.rules = [];
  await cleanUpState(saved, { env: eksEnv(), log: () => undefined, pollMs: 20 }).catch(
    () => undefined,
  );
  const afterPost = (await mine()).clusters;
  await reap(clients, {
    dryRun: false,
    now: new Date(Date.now() + 400 * 86400_000),
    log: () => undefined,
    pollMs: 20,
  });
  const left = await mine();
  outcomes.push({
    kind: 'fault',
    phase,
    op,
    fault: f.name,
    slow,
    runError,
    afterRun,
    afterPost,
    afterReap: left.clusters,
    templatesLeft: left.templates,
  });
}

const only = process.argv[2]; // `faults` or `kills`: one part of the matrix
for (const slow of only === 'kills' ? [] : [false, true]) {
  for (const [phase, ops] of [
    ['create', CREATE_OPS],
    ['delete', DELETE_OPS],
  ] as const) {
    for (const op of ops) {
      for (const f of FAULTS) {
        // The checks themselves talk to moto: a failure there is the harness's, said as such.
        await faultCase(phase, op, f, slow).catch((error: Error) => {
          process.stderr.write(`harness error in ${phase} ${op} ${f.name}: ${error.message}\n`);
          process.exitCode = 2;
        });
      }
    }
  }
}

// The kill matrix: count the calls of an undisturbed `cluster create`, then kill at each.
proxy.rules = [];
proxy.slowPhases = { cluster: 2, nodegroup: 2 };
let createCalls = 0;
if (only !== 'faults') {
  proxy.calls.length = 0;
  await killCase({ step: 10_000, signal: 'SIGKILL' }, { dir, proxy, motoUrl: moto.url });
  // An upper bound: the probe's post step counts too; the loop below stops at the end.
  createCalls = proxy.calls.length;
}
for (const signal of only === 'faults' ? [] : (['SIGKILL', 'SIGTERM'] as const)) {
  for (let step = 0; step < createCalls; step++) {
    proxy.reset();
    proxy.slowPhases = { cluster: 2, nodegroup: 2 };
    const outcome = await killCase(
      { step, signal },
      { dir, proxy, motoUrl: moto.url, graceMs: 3000 },
    );
    if (outcome.op === null) break; // the create finished before this step: all steps covered
    outcomes.push({
      kind: 'kill',
      phase: 'create',
      op: `${step}:${outcome.op}`,
      fault: signal,
      slow: true,
      runError: null,
      afterRun: -1,
      afterPost: outcome.afterPost,
      afterReap: outcome.afterReap.clusters,
      templatesLeft: outcome.afterReap.templates,
    });
  }
}

await proxy.close();
await moto.stop();
rmSync(dir, { recursive: true, force: true });

const survived = outcomes.filter((o) => o.afterReap === 0 && o.templatesLeft === 0);
const summary = {
  cases: outcomes.length,
  survived: survived.length,
  faultCases: outcomes.filter((o) => o.kind === 'fault').length,
  killCases: outcomes.filter((o) => o.kind === 'kill').length,
  runFailed: outcomes.filter((o) => o.runError !== null).length,
  cleanedByRunItself: outcomes.filter((o) => o.afterRun === 0).length,
  neededPostStep: outcomes.filter((o) => o.afterRun !== 0 && o.afterPost === 0).length,
  neededReap: outcomes.filter((o) => o.afterPost > 0 && o.afterReap === 0).length,
  seconds: Math.round((Date.now() - started) / 1000),
};
const out = path.join(import.meta.dirname, 'results', 'cluster-faults.json');
writeFileSync(out, `${JSON.stringify({ summary, outcomes }, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(summary, null, 2)}\nwritten: ${out}\n`);
if (survived.length !== outcomes.length) process.exitCode = 1;
