import type { V1Pod } from '@kubernetes/client-node';
import { BENCH_CONTAINER, BENCH_JOB, LABELS } from './manifests.js';
import { describeKubeError, isUnreachable, type Kube } from './kube.js';
import { ClusterError } from './types.js';

/** Waiting for the benchmark pod, and following it: the Kubernetes side of a cluster run. */
export interface PodWatch {
  kube: Kube;
  namespace: string;
  runId: string;
  signal: AbortSignal;
  /** How often the pod is looked at, ms. */
  pollMs: number;
  /** How long the API server may stay unreachable before the run is given up, ms. */
  unreachableMs: number;
}

/** Container waiting reasons that will not resolve by waiting: the image or its config. */
const HOPELESS = new Set([
  'ErrImagePull',
  'ImagePullBackOff',
  'ErrImageNeverPull',
  'InvalidImageName',
  'CreateContainerConfigError',
  'CreateContainerError',
  'RunContainerError',
]);

/**
 * Waits until the Job's pod runs. Fails at once, naming the image, when the image cannot be
 * had; after `unschedulableMs` when no node can take the pod (the scheduler's reason, e.g.
 * "Insufficient cpu"); after `timeoutMs` in any case.
 */
export async function waitForRunningPod(
  watch: PodWatch,
  options: { image: string; cpus: number; timeoutMs: number; unschedulableMs: number },
): Promise<V1Pod> {
  const started = Date.now();
  let unschedulableSince: number | null = null;
  return poll(watch, async () => {
    const pod = await benchPod(watch);
    if (pod === null) {
      await jobFailure(watch);
      return timedOut(started, options.timeoutMs, 'no pod was created for the Job');
    }
    const phase = pod.status?.phase;
    if (phase === 'Running') return pod;
    if (phase === 'Failed' || phase === 'Succeeded') {
      throw new ClusterError(`the benchmark pod ended before the run started: ${podEnd(pod)}`);
    }
    const waiting = pod.status?.containerStatuses?.find((c) => c.name === BENCH_CONTAINER)?.state
      ?.waiting;
    if (waiting?.reason !== undefined && HOPELESS.has(waiting.reason)) {
      throw new ClusterError(
        `cluster.image "${options.image}" cannot be started on node ${pod.spec?.nodeName ?? '?'}: ${waiting.reason}${waiting.message ? `: ${waiting.message}` : ''}`,
      );
    }
    const scheduled = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
    if (scheduled?.status === 'False' && scheduled.reason === 'Unschedulable') {
      unschedulableSince ??= Date.now();
      if (Date.now() - unschedulableSince >= options.unschedulableMs) {
        throw new ClusterError(
          `no node can run the benchmark pod (${options.cpus} whole CPUs, cluster.cpus): ${scheduled.message ?? 'unschedulable'}; ask for fewer CPUs (a duet needs 3 for full isolation, a sequential mode 2), use a larger instance type, or free a node`,
        );
      }
    } else unschedulableSince = null;
    return timedOut(
      started,
      options.timeoutMs,
      `the benchmark pod did not start within ${Math.round(options.timeoutMs / 1000)} s (cluster.startTimeout): ${waiting?.reason ?? phase ?? 'pending'}`,
    );
  });
}

/**
 * Follows the running pod until duetkit inside it has finished (the container prints
 * `duetkit-run-finished STATUS`), and fails when the pod is evicted or deleted, its Job
 * passes its deadline, or the API server stays unreachable. Returns the in-pod exit status.
 */
export async function waitForRunEnd(watch: PodWatch, podName: string): Promise<number> {
  return poll(watch, async () => {
    const pod = await benchPod(watch);
    if (pod === null || pod.metadata?.name !== podName) {
      const disrupted = await disruption(watch);
      if (disrupted !== null) throw new ClusterError(disrupted);
      await jobFailure(watch);
      throw new ClusterError(
        `the benchmark pod ${podName} was deleted while the run went on (evicted or removed by someone)`,
      );
    }
    if (pod.status?.phase === 'Failed') {
      const disrupted = await disruption(watch);
      if (disrupted !== null) throw new ClusterError(disrupted);
      await jobFailure(watch);
      throw new ClusterError(`the benchmark pod failed: ${podEnd(pod)}`);
    }
    const log = await watch.kube.log(watch.namespace, podName, BENCH_CONTAINER, 5);
    const finished = /duetkit-run-finished (\d+)/.exec(log);
    if (finished !== null) return Number(finished[1]);
    if (pod.status?.phase === 'Succeeded') {
      throw new ClusterError('the benchmark pod ended without reporting that the run finished');
    }
    await jobFailure(watch);
    return undefined;
  });
}

/** The Job's pod (the newest, should the Job have made another). */
async function benchPod(watch: PodWatch): Promise<V1Pod | null> {
  const pods = await watch.kube.listPods(watch.namespace, `${LABELS.runId}=${watch.runId}`);
  const live = pods.filter((p) => p.metadata?.labels?.[LABELS.role] === 'duet');
  live.sort((a, b) => time(a.metadata?.creationTimestamp) - time(b.metadata?.creationTimestamp));
  return live.at(-1) ?? null;
}

/** Throws when the Job has failed (its deadline passed, its pod failed). */
async function jobFailure(watch: PodWatch): Promise<void> {
  const job = await watch.kube.readJob(watch.namespace, BENCH_JOB);
  const failed = job?.status?.conditions?.find(
    (c) => (c.type === 'Failed' || c.type === 'FailureTarget') && c.status === 'True',
  );
  if (failed === undefined) return;
  const disrupted = await disruption(watch);
  if (disrupted !== null) throw new ClusterError(disrupted);
  if (failed.reason === 'DeadlineExceeded') {
    throw new ClusterError(
      `the benchmark Job passed its deadline of ${job?.spec?.activeDeadlineSeconds ?? '?'} s (cluster.maxLifetime, less what provisioning took) and was stopped`,
    );
  }
  throw new ClusterError(
    `the benchmark Job failed: ${failed.reason ?? ''}${failed.message ? `: ${failed.message}` : ''}`,
  );
}

/**
 * Why the Job's pod was taken away, when Kubernetes says it was (the DisruptionTarget
 * condition: an eviction, a preemption, a node drained or lost), else null.
 */
export async function disruption(watch: PodWatch): Promise<string | null> {
  const pods = await watch.kube.listPods(watch.namespace, `${LABELS.runId}=${watch.runId}`);
  for (const pod of pods) {
    const condition = pod.status?.conditions?.find(
      (c) => c.type === 'DisruptionTarget' && c.status === 'True',
    );
    if (condition !== undefined) {
      return `the benchmark pod ${pod.metadata?.name ?? ''} was evicted or disrupted by Kubernetes (${condition.reason ?? 'DisruptionTarget'}: ${condition.message ?? 'no message'}); the run is lost, run it again`;
    }
    if (pod.status?.reason === 'Evicted') {
      return `the benchmark pod ${pod.metadata?.name ?? ''} was evicted: ${pod.status.message ?? 'no message'}`;
    }
  }
  return null;
}

function podEnd(pod: V1Pod): string {
  const status = pod.status;
  const terminated = status?.containerStatuses?.find((c) => c.name === BENCH_CONTAINER)?.state
    ?.terminated;
  const parts = [
    status?.reason,
    status?.message,
    terminated === undefined
      ? undefined
      : `container ${terminated.reason ?? 'terminated'} with exit code ${terminated.exitCode}`,
  ].filter((p): p is string => p !== undefined && p !== '');
  return parts.join(': ') || 'no reason given';
}

function timedOut(started: number, timeoutMs: number, message: string): undefined {
  if (Date.now() - started >= timeoutMs) throw new ClusterError(message);
  return undefined;
}

function time(t: Date | string | undefined): number {
  return t === undefined ? 0 : new Date(t).getTime();
}

/**
 * Calls `step` every `pollMs` until it returns a value or throws. Network errors (the API
 * server unreachable) are retried for `unreachableMs`; API errors and the abort signal end it.
 */
async function poll<T>(watch: PodWatch, step: () => Promise<T | undefined>): Promise<T> {
  let unreachableSince: number | null = null;
  for (;;) {
    if (watch.signal.aborted)
      throw new ClusterError(`interrupted by ${String(watch.signal.reason)}`);
    try {
      const value = await step();
      unreachableSince = null;
      if (value !== undefined) return value;
    } catch (error) {
      if (error instanceof ClusterError) throw error;
      if (!isUnreachable(error)) {
        throw new ClusterError(`the Kubernetes API refused a request: ${describeKubeError(error)}`);
      }
      unreachableSince ??= Date.now();
      if (Date.now() - unreachableSince >= watch.unreachableMs) {
        throw new ClusterError(
          `the Kubernetes API server at ${watch.kube.server} has been unreachable for ${Math.round((Date.now() - unreachableSince) / 1000)} s: ${describeKubeError(error)}`,
        );
      }
    }
    await sleep(watch.pollMs, watch.signal);
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done);
  });
}
