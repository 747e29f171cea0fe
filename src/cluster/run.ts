import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { parseCpuList } from '../isolation/cpus.js';
import { createGit, type Git } from '../git/git.js';
import { createWorktreeSet } from '../git/worktrees.js';
import type { LoadedScenario } from '../scenario/load.js';
import type { Scenario } from '../scenario/schema.js';
import { prepareVersions } from '../runner/versions.js';
import { randomSeed } from '../stats/rng.js';
import { buildTimer } from '../runner/timer/build.js';
import { machineInfo } from '../runner/machine.js';
import { SAMPLES_SCHEMA_VERSION, type SamplesFile, type VersionRecord } from '../runner/samples.js';
import { TOOL_VERSION } from '../runner/run.js';
import { deleteNamespace } from './cleanup.js';
import { createKube, describeKubeError, type Kube } from './kube.js';
import { benchJobManifest, namespaceManifest } from './manifests.js';
import { disruption, waitForRunEnd, waitForRunningPod, type PodWatch } from './pod.js';
import { costOf, nodeIdentity, type ClusterRecord } from './record.js';
import { getProvider } from './registry.js';
import { podCpus, type ClusterSpec } from './schema.js';
import { createStateRecorder, type ClusterState, type StateRecorder } from './state.js';
import {
  bundleDir,
  copyDirectory,
  isStaticExecutable,
  POD_ROOT,
  readFile,
  run as runInPod,
  writeFile,
  type PodTarget,
} from './transfer.js';
import { ClusterError, type AcquiredCluster } from './types.js';

export interface ClusterRunOptions {
  seed?: number;
  signal: AbortSignal;
  env: NodeJS.ProcessEnv;
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
  /** Seams for tests: polling and give-up times, ms. */
  pollMs?: number;
  unreachableMs?: number;
  unschedulableMs?: number;
  /** How long deleting the namespace may keep retrying while the API is unreachable, ms. */
  cleanupMs?: number;
  /** duetkit's bundle to copy into the pod (default: the running one, see `bundleDir`). */
  bundleDir?: string;
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

interface PodRun {
  kube: Kube;
  scenario: Scenario;
  spec: ClusterSpec;
  versions: VersionRecord[];
  runId: string;
  namespace: string;
  cpus: number;
  seed: number;
  started: Date;
  expiresAt: Date;
  record: ClusterRecord;
  state: StateRecorder;
  options: ClusterRunOptions;
  log: (line: string) => void;
  kubeconfigFile: string | undefined;
}

async function benchmarkInPod(run: PodRun): Promise<SamplesFile> {
  const { kube, spec, namespace, record, options, log } = run;
  const podStart = Date.now();
  run.state.update((s) => {
    s.namespace = {
      name: namespace,
      ...(run.kubeconfigFile === undefined ? {} : { kubeconfig: run.kubeconfigFile }),
      ...(spec.existing.context === undefined ? {} : { context: spec.existing.context }),
    };
  });
  log(`namespace ${namespace} on ${kube.server}`);
  await api(kube, 'create the namespace', () =>
    kube.createNamespace(namespaceManifest(namespace, run.runId, run.expiresAt)),
  );
  const deadline = (run.expiresAt.getTime() - Date.now()) / 1000;
  if (deadline < 10) {
    throw new ClusterError(
      `cluster.maxLifetime (${spec.maxLifetime} s) leaves ${Math.round(deadline)} s for the benchmark after provisioning`,
    );
  }
  await api(kube, 'create the benchmark Job', () =>
    kube.createJob(
      namespace,
      benchJobManifest({
        runId: run.runId,
        image: spec.image,
        imagePullPolicy: spec.imagePullPolicy,
        cpus: run.cpus,
        memory: spec.memory,
        deadlineSeconds: deadline,
        nodeSelector: spec.nodeSelector,
        seed: run.seed,
      }),
    ),
  );
  const watch: PodWatch = {
    kube,
    namespace,
    runId: run.runId,
    signal: options.signal,
    pollMs: options.pollMs ?? 500,
    unreachableMs: options.unreachableMs ?? 60_000,
  };
  log(`waiting for the benchmark pod (${run.cpus} CPUs, image ${spec.image})`);
  const pod = await waitForRunningPod(watch, {
    image: spec.image,
    cpus: run.cpus,
    timeoutMs: spec.startTimeout * 1000,
    unschedulableMs: options.unschedulableMs ?? 30_000,
  });
  const podName = pod.metadata!.name!;
  record.pod = podName;
  record.nodeName = pod.spec?.nodeName ?? null;
  record.timings.podStart = seconds(Date.now() - podStart);
  const target: PodTarget = { kube, namespace, pod: podName };
  try {
    return await benchmarkRunningPod(run, watch, target);
  } catch (error) {
    // An exec cut off by an eviction reads as a broken connection: say what really happened.
    const disrupted = await disruption(watch).catch(() => null);
    throw disrupted === null ? error : new ClusterError(disrupted);
  }
}

async function benchmarkRunningPod(
  run: PodRun,
  watch: PodWatch,
  target: PodTarget,
): Promise<SamplesFile> {
  const { kube, record, log } = run;
  const podName = target.pod;
  const arch = await inspectNode(kube, target, record, run.cpus);
  log(
    `pod ${podName} on node ${record.nodeName ?? '?'}${record.instanceType ? ` (${record.instanceType})` : ''}, CPUs ${record.cpuset ?? '?'}${record.exclusive ? ' (exclusive)' : ''}`,
  );
  const copyStart = Date.now();
  await copyIn(target, run, arch);
  record.timings.copy = seconds(Date.now() - copyStart);
  log('running the benchmark in the pod');
  const status = await waitForRunEnd(watch, podName);
  const samples = await readFile(target, `${POD_ROOT}/out/samples.json`);
  const runLog = (await readFile(target, `${POD_ROOT}/out/run.log`))?.toString() ?? '';
  await runInPod(target, ['touch', `${POD_ROOT}/.collected`]).catch(() => undefined);
  if (samples === null) {
    throw new ClusterError(
      `duetkit in the pod ended with status ${status} and wrote no samples; its output:\n${tail(runLog)}`,
    );
  }
  return JSON.parse(samples.toString()) as SamplesFile;
}

/** Node, instance, CPUs: what the pod runs on, looked at from outside and from inside. */
async function inspectNode(
  kube: Kube,
  target: PodTarget,
  record: ClusterRecord,
  cpus: number,
): Promise<string> {
  if (record.nodeName !== null) {
    try {
      const identity = nodeIdentity(await kube.readNode(record.nodeName));
      record.instanceId = identity.instanceId;
      record.instanceType = identity.instanceType;
      record.nodeCpus = identity.cpus;
    } catch (error) {
      record.warnings.push(
        `the node could not be read (${describeKubeError(error)}): no instance id or type`,
      );
    }
  }
  const probe = await runInPod(
    target,
    [
      'sh',
      '-c',
      'command -v node >/dev/null || { echo "no node on PATH" >&2; exit 3; }; node -e \'console.log(process.versions.node)\'; uname -m; sed -n "s/^Cpus_allowed_list:[[:space:]]*//p" /proc/self/status',
    ],
    undefined,
    'look at the image (Node.js, architecture, CPUs)',
  ).catch((error: Error) => {
    throw new ClusterError(
      `${error.message}; cluster.image "${record.image}" needs Node.js ≥ 20 on PATH, sh and tar (duetkit runs its bundle there)`,
    );
  });
  const [nodeVersion = '', machine = '', cpuset = ''] = probe.trim().split('\n');
  if (Number(nodeVersion.split('.')[0]) < 20) {
    throw new ClusterError(
      `cluster.image "${record.image}" has Node.js ${nodeVersion}; duetkit's runner needs Node.js ≥ 20`,
    );
  }
  record.cpuset = cpuset;
  const count = cpuset === '' ? 0 : parseCpuList(cpuset).length;
  record.exclusive = count === cpus && record.nodeCpus !== null && count < record.nodeCpus;
  if (!record.exclusive) {
    record.warnings.push(
      `the pod's CPUs (${cpuset}) are not its own: the node's kubelet does not give Guaranteed pods exclusive cores (enable the static CPU manager: k8s/kubelet-cpu-manager.yaml)`,
    );
  }
  return machine;
}

/** Bundle, the host-built timer when the node can run it, versions, scenario; then start. */
async function copyIn(target: PodTarget, run: PodRun, machine: string): Promise<void> {
  await copyDirectory(target, run.options.bundleDir ?? bundleDir(), `${POD_ROOT}/bundle`);
  const hostMachine = process.arch === 'x64' ? 'x86_64' : process.arch === 'arm64' ? 'aarch64' : '';
  const timer = await buildTimer(run.options.env);
  if (timer.path !== null && machine === hostMachine && isStaticExecutable(timer.path)) {
    // The pod builds the timer itself when its image has a C compiler; this spares it that,
    // and spares images without one the harness's clock.
    const dir = path.basename(path.dirname(timer.path));
    await copyDirectory(target, path.dirname(timer.path), `${POD_ROOT}/cache/${dir}`);
  }
  for (const version of run.versions) {
    await copyDirectory(target, version.dir, `${POD_ROOT}/versions/${version.name}`);
  }
  const inPod = podScenario(run.scenario, run.versions);
  await writeFile(target, `${POD_ROOT}/scenario.json`, Buffer.from(JSON.stringify(inPod, null, 2)));
  await runInPod(target, [
    'sh',
    '-c',
    `mkdir -p ${POD_ROOT}/out ${POD_ROOT}/home && touch ${POD_ROOT}/.start`,
  ]);
}

/** The scenario duetkit runs inside the pod: the same, with the copied directories as paths. */
export function podScenario(scenario: Scenario, versions: readonly VersionRecord[]): unknown {
  const { cluster: _cluster, ...rest } = scenario;
  return {
    ...rest,
    versions: scenario.versions.map((v, i) => {
      const { ref: _ref, dir: _dir, path: _path, ...kept } = v;
      return { ...kept, path: `${POD_ROOT}/versions/${versions[i]!.name}` };
    }),
  };
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

async function api<T>(kube: Kube, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new ClusterError(`could not ${what} at ${kube.server}: ${describeKubeError(error)}`);
  }
}

function seconds(ms: number): number {
  return Math.round(ms) / 1000;
}

function tail(text: string): string {
  return text
    .trimEnd()
    .split('\n')
    .slice(-15)
    .map((l) => `  | ${l}`)
    .join('\n');
}
