import path from 'node:path';
import { parseCpuList } from '../isolation/cpus.js';
import type { SamplesFile, VersionRecord } from '../contracts/samples.js';
import { buildTimer } from '../runner/timer/build.js';
import type { Scenario } from '../scenario/schema.js';
import { describeKubeError, type Kube } from '../cluster/kube.js';
import { benchJobManifest, namespaceManifest } from '../cluster/manifests.js';
import { disruption, waitForRunEnd, waitForRunningPod, type PodWatch } from '../cluster/pod.js';
import { nodeIdentity } from '../cluster/record.js';
import type { ClusterRecord } from '../contracts/cluster-record.js';
import type { ClusterSpec } from '../cluster/schema.js';
import type { StateRecorder } from '../cluster/state.js';
import {
  BUNDLE_FILES,
  bundleDir,
  copyDirectory,
  isStaticExecutable,
  POD_ROOT,
  readFile,
  run as runInPod,
  writeFile,
  type PodTarget,
} from '../cluster/transfer.js';
import { ClusterError } from '../cluster/types.js';

/** What the pod's part takes of a cluster run's options (`ClusterRunOptions` extends it). */
export interface PodRunOptions {
  signal: AbortSignal;
  env: NodeJS.ProcessEnv;
  /** Seams for tests: polling and give-up times, ms. */
  pollMs?: number;
  unreachableMs?: number;
  unschedulableMs?: number;
  /** duetkit's bundle to copy into the pod (default: the running one, see `bundleDir`). */
  bundleDir?: string;
}

/**
 * The Kubernetes part of a cluster run: the namespace and Job, the pod waited for, looked at
 * (node, instance, CPUs, Node.js), the code copied in, the run followed, the samples copied
 * out. Throws a ClusterError naming what went wrong; the caller deletes the namespace.
 */
export interface PodRun {
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
  options: PodRunOptions;
  log: (line: string) => void;
  kubeconfigFile: string | undefined;
}

export async function benchmarkInPod(run: PodRun): Promise<SamplesFile> {
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
  await copyDirectory(
    target,
    run.options.bundleDir ?? bundleDir(),
    `${POD_ROOT}/bundle`,
    BUNDLE_FILES,
  );
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

async function api<T>(kube: Kube, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new ClusterError(`could not ${what} at ${kube.server}: ${describeKubeError(error)}`);
  }
}

export function seconds(ms: number): number {
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
