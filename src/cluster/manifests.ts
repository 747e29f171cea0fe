import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { V1Job, V1Namespace, V1Pod } from '@kubernetes/client-node';
import { parse, parseAllDocuments } from 'yaml';

/**
 * The manifests in k8s/, read as YAML and filled in as objects — never assembled as text. The
 * source finds them at the repository's k8s/, the bundle beside itself (scripts/bundle.mjs
 * copies them to dist/k8s/).
 */
const CANDIDATES = ['../../k8s/', './k8s/'];

export function manifestsDir(): string {
  for (const candidate of CANDIDATES) {
    const dir = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(`${dir}duet-job.yaml`)) return dir;
  }
  throw new Error(
    `duetkit's Kubernetes manifests are missing (looked in ${CANDIDATES.join(', ')})`,
  );
}

/** A template as a fresh object (each call parses again, so callers may change it). */
export function loadManifest<T>(file: string): T {
  return parse(readFileSync(`${manifestsDir()}${file}`, 'utf8')) as T;
}

/** Every document of a multi-document template. */
export function loadManifests(file: string): Record<string, unknown>[] {
  return parseAllDocuments(readFileSync(`${manifestsDir()}${file}`, 'utf8')).map(
    (doc) => doc.toJS() as Record<string, unknown>,
  );
}

export const LABELS = {
  managedBy: 'app.kubernetes.io/managed-by',
  runId: 'duetkit.dev/run-id',
  role: 'duetkit.dev/role',
  expiresAt: 'duetkit.dev/expires-at',
} as const;

/** k8s/namespace.yaml for one run. */
export function namespaceManifest(name: string, runId: string, expiresAt: Date): V1Namespace {
  const ns = loadManifest<V1Namespace>('namespace.yaml');
  ns.metadata!.name = name;
  ns.metadata!.labels![LABELS.runId] = runId;
  ns.metadata!.annotations![LABELS.expiresAt] = expiresAt.toISOString();
  return ns;
}

export interface BenchJobOptions {
  runId: string;
  image: string;
  imagePullPolicy: string;
  cpus: number;
  memory: string;
  /** The Job's deadline, seconds. */
  deadlineSeconds: number;
  nodeSelector: Record<string, string>;
  seed: number;
}

export const BENCH_JOB = 'duetkit-bench';
export const BENCH_CONTAINER = 'bench';

/** k8s/duet-job.yaml for one run: Guaranteed QoS, `cpus` whole CPUs. */
export function benchJobManifest(options: BenchJobOptions): V1Job {
  const job = loadManifest<V1Job>('duet-job.yaml');
  job.metadata!.labels![LABELS.runId] = options.runId;
  const spec = job.spec!;
  spec.activeDeadlineSeconds = Math.max(1, Math.floor(options.deadlineSeconds));
  const pod = spec.template;
  pod.metadata!.labels![LABELS.runId] = options.runId;
  pod.spec!.nodeSelector = { ...options.nodeSelector };
  const container = pod.spec!.containers.find((c) => c.name === BENCH_CONTAINER)!;
  container.image = options.image;
  container.imagePullPolicy = options.imagePullPolicy;
  const amount = { cpu: String(options.cpus), memory: options.memory };
  container.resources = { requests: { ...amount }, limits: { ...amount } };
  container.env = container.env!.map((e) =>
    e.name === 'DUETKIT_SEED' ? { ...e, value: String(options.seed) } : e,
  );
  return job;
}

/** k8s/load-generator.yaml: a pod kept off the duet pod's node. */
export function loadGeneratorManifest(options: {
  runId: string;
  name: string;
  image: string;
  command: string[];
  cpus: number;
  memory: string;
}): V1Pod {
  const pod = loadManifest<V1Pod>('load-generator.yaml');
  pod.metadata!.name = options.name;
  pod.metadata!.labels![LABELS.runId] = options.runId;
  const container = pod.spec!.containers[0]!;
  container.image = options.image;
  container.command = options.command;
  const amount = { cpu: String(options.cpus), memory: options.memory };
  container.resources = { requests: { ...amount }, limits: { ...amount } };
  return pod;
}

/** The kubelet settings of k8s/kubelet-cpu-manager.yaml (the static CPU manager). */
export function cpuManagerSettings(): Record<string, unknown> {
  const {
    apiVersion: _a,
    kind: _k,
    ...settings
  } = loadManifest<Record<string, unknown>>('kubelet-cpu-manager.yaml');
  return settings;
}
