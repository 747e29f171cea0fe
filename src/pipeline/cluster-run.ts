import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { createGit, type Git } from '../git/git.js';
import { createWorktreeSet } from '../git/worktrees.js';
import type { LoadedScenario } from '../scenario/load.js';
import { prepareVersions } from '../runner/versions.js';
import { randomSeed } from '../stats/rng.js';
import { machineInfo } from '../runner/machine.js';
import {
  SAMPLES_SCHEMA_VERSION,
  type SamplesFile,
  type VersionRecord,
} from '../contracts/samples.js';
import { TOOL_VERSION } from './local-run.js';
import { deleteNamespace } from '../cluster/cleanup.js';
import { createKube, type Kube } from '../cluster/kube.js';
import { benchmarkInPod, seconds, type PodRunOptions } from './pod-run.js';
import { costOf } from '../cluster/record.js';
import type { ClusterRecord } from '../contracts/cluster-record.js';
import { getProvider } from '../cluster/registry.js';
import { podCpus } from '../cluster/schema.js';
import { createStateRecorder, type ClusterState, type StateRecorder } from '../cluster/state.js';
import type { AcquiredCluster } from '../cluster/types.js';

export interface ClusterRunOptions extends PodRunOptions {
  seed?: number;
  /** Progress for the user, one line each. */
  log?: (line: string) => void;
  /** Persists the cluster state as it changes (the post step's input); default: memory only. */
  saveState?: (state: ClusterState) => void;
  /** Run id (names the namespace and every AWS resource); default: drawn. */
  runId?: string;
  /** owner/name for the `duetkit:repository` tag. */
  repository?: string;
  gitAt?: (cwd: string) => Git;
  worktreeParent?: string;
  /** How long deleting the namespace may keep retrying while the API is unreachable, ms. */
  cleanupMs?: number;
}

/** A fresh run id: time-ordered, unique, usable in every AWS and Kubernetes name. */
export function newRunId(): string {
  const stamp = new Date().toISOString().replace(/[-:T]/g, '').slice(2, 12);
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}

/**
 * Runs a scenario with `cluster:` in a Kubernetes cluster: the cluster acquired (created for
 * eks and kind), a namespace and a Guaranteed-QoS Job made from k8s/, both versions' code and
 * duetkit's bundle copied into the pod, the same runner run there, samples.json copied back,
 * then the namespace and anything created deleted — whatever happened. Like `runScenario`,
 * failures come back as an incomplete samples file with the error.
 */
export async function runInCluster(
  loaded: LoadedScenario,
  options: ClusterRunOptions,
): Promise<SamplesFile> {
  const { scenario } = loaded;
  const spec = scenario.cluster!;
  const started = new Date();
  const seed = options.seed ?? scenario.seed ?? randomSeed();
  const runId = options.runId ?? newRunId();
  const log = options.log ?? (() => undefined);
  const state = createStateRecorder(
    { schemaVersion: 1, runId, provider: spec.provider },
    options.saveState ?? (() => undefined),
  );
  const namespace = `${spec.namespace}-${runId}`;
  const cpus = podCpus(spec, scenario.mode);
  const record: ClusterRecord = {
    provider: spec.provider,
    name: '',
    nodeName: null,
    instanceId: null,
    instanceType: null,
    kept: true,
    namespace,
    pod: null,
    image: spec.image,
    cpus,
    cpuset: null,
    exclusive: null,
    nodeCpus: null,
    timings: { provision: null, podStart: null, copy: null, toFirstPair: null, total: null },
    cost: null,
    warnings: [],
  };
  const gitAt = options.gitAt ?? createGit;
  const worktrees = createWorktreeSet(gitAt(loaded.baseDir), options.worktreeParent);
  let versions: VersionRecord[] = [];
  let inPod: SamplesFile | null = null;
  let error: string | null = null;
  let cluster: AcquiredCluster | null = null;
  let kube: Kube | null = null;
  const expiresAt = new Date(started.getTime() + spec.maxLifetime * 1000);
  try {
    // Versions first: a bad ref should fail before anything is paid for.
    versions = await prepareVersions(
      scenario.versions.map(({ setup: _setup, ...v }) => v),
      { baseDir: loaded.baseDir, gitAt, worktrees, env: options.env, signal: options.signal },
    );
    cluster = await getProvider(spec.provider).acquire({
      spec,
      runId,
      baseDir: loaded.baseDir,
      env: options.env,
      signal: options.signal,
      state,
      log,
      repository: options.repository ?? options.env.GITHUB_REPOSITORY ?? '',
      expiresAt,
      cpus,
    });
    record.name = cluster.name;
    record.kept = cluster.kept;
    record.timings.provision = cluster.provisionSeconds;
    kube = createKube(cluster.kubeConfig);
    inPod = await benchmarkInPod({
      kube,
      scenario,
      spec,
      versions,
      runId,
      namespace,
      cpus,
      seed,
      started,
      expiresAt,
      record,
      state,
      options,
      log,
      kubeconfigFile:
        spec.existing.kubeconfig === undefined
          ? undefined
          : path.resolve(loaded.baseDir, spec.existing.kubeconfig),
    });
  } catch (failure) {
    error = options.signal.aborted
      ? `interrupted by ${String(options.signal.reason)}`
      : (failure as Error).message;
  } finally {
    const problems = await tearDown({ kube, namespace, state, cluster, worktrees, options, log });
    if (problems.length > 0 && error === null) error = `cleanup: ${problems.join('; ')}`;
    else if (problems.length > 0) error = `${error}\ncleanup: ${problems.join('; ')}`;
  }
  const finished = new Date();
  record.timings.total = seconds(finished.getTime() - started.getTime());
  if (cluster !== null) {
    const since = cluster.billedSince ?? started;
    record.cost = costOf(cluster.nodes, since, finished, spec.pricePerNodeHour);
  }
  return merge({ loaded, inPod, versions, record, seed, started, finished, error, options });
}

async function tearDown(context: {
  kube: Kube | null;
  namespace: string;
  state: StateRecorder;
  cluster: AcquiredCluster | null;
  worktrees: ReturnType<typeof createWorktreeSet>;
  options: ClusterRunOptions;
  log: (line: string) => void;
}): Promise<string[]> {
  const problems: string[] = [];
  const { kube, state, options } = context;
  if (kube !== null && state.current.namespace !== undefined) {
    try {
      await deleteNamespace(kube, context.namespace, {
        retryMs: options.cleanupMs ?? 300_000,
        pollMs: options.pollMs ?? 500,
        log: context.log,
      });
      state.update((s) => delete s.namespace);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  if (context.cluster !== null) {
    try {
      await context.cluster.release();
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  await context.worktrees.dispose().catch((error: Error) => problems.push(error.message));
  return problems;
}

/** The samples the pod wrote, told where they ran; or an incomplete file with the error. */
function merge(context: {
  loaded: LoadedScenario;
  inPod: SamplesFile | null;
  versions: VersionRecord[];
  record: ClusterRecord;
  seed: number;
  started: Date;
  finished: Date;
  error: string | null;
  options: ClusterRunOptions;
}): SamplesFile {
  const { loaded, inPod, record, error } = context;
  const scenario = loaded.scenario;
  const versions = scenario.versions.map((v, i) => {
    const host = context.versions[i];
    const source = v.path !== undefined ? { path: v.path } : { ref: v.ref! };
    return {
      name: v.name,
      source,
      commit: host?.commit ?? null,
      dirty: host?.dirty ?? false,
      dir: inPod?.versions[i]?.dir ?? '',
    };
  });
  if (inPod !== null) {
    const first = firstPairEnd(inPod);
    record.timings.toFirstPair =
      first === null
        ? null
        : seconds(Date.parse(inPod.startedAt) + first - context.started.getTime());
    const failed = error !== null && inPod.error === null;
    return {
      ...inPod,
      scenario,
      scenarioFile: loaded.file,
      versions,
      cluster: record,
      ...(failed ? { complete: false, stopReason: 'failed', error } : {}),
    };
  }
  return {
    schemaVersion: SAMPLES_SCHEMA_VERSION,
    tool: { name: 'duetkit', version: TOOL_VERSION },
    complete: false,
    stopReason: context.options.signal.aborted ? 'interrupted' : 'failed',
    error: error ?? 'the run in the cluster produced no samples',
    scenario,
    scenarioFile: loaded.file,
    mode: scenario.mode,
    seed: context.seed,
    startedAt: context.started.toISOString(),
    finishedAt: context.finished.toISOString(),
    machine: machineInfo(),
    isolation: {
      requested: scenario.isolation,
      kind: 'none',
      slots: [],
      harnessCpus: null,
      cgroup: null,
      warnings: ['isolation was never set up: the run stopped before measuring'],
    },
    versions,
    order: [],
    trials: [],
    cluster: record,
  };
}

/** ms after `startedAt` when every version of the first round had finished. */
function firstPairEnd(samples: SamplesFile): number | null {
  const first = samples.trials.filter((t) => t.round === samples.trials[0]?.round);
  if (first.length === 0) return null;
  return Math.max(...first.map((t) => t.endMs));
}
