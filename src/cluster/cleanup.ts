import { createKube, describeKubeError, isUnreachable, type Kube } from './kube.js';
import { sleep } from './pod.js';
import { getProvider } from './registry.js';
import type { ClusterState } from './state.js';
import { ClusterError, type CleanupContext } from './types.js';

/**
 * Deletes a run's namespace (and so its Job and pod), retrying while the API server is
 * unreachable for up to `retryMs`. Resolves when the deletion was accepted or the namespace is
 * already gone; throws, naming the namespace and how to delete it later, when it could not be.
 */
export async function deleteNamespace(
  kube: Kube,
  name: string,
  options: { retryMs: number; pollMs: number; log: (line: string) => void },
): Promise<void> {
  const started = Date.now();
  let told = false;
  for (;;) {
    try {
      await kube.deleteNamespace(name);
      await waitUntilGone(kube, name, options);
      return;
    } catch (error) {
      if (!isUnreachable(error) || Date.now() - started >= options.retryMs) {
        throw new ClusterError(
          `the namespace ${name} could not be deleted at ${kube.server} (${describeKubeError(error)}); delete it with \`duetkit cluster delete --state FILE\` or kubectl delete namespace ${name}`,
        );
      }
      if (!told) {
        options.log(`the API server is unreachable; retrying to delete namespace ${name}`);
        told = true;
      }
      await sleep(Math.min(options.pollMs * 4, 5000));
    }
  }
}

/**
 * Waits (at most a minute) until the namespace's pods are gone, so that their exclusive CPUs
 * are free for the next run; Kubernetes then finalizes the namespace itself (seconds more).
 */
async function waitUntilGone(
  kube: Kube,
  name: string,
  options: { pollMs: number; log: (line: string) => void },
): Promise<void> {
  const started = Date.now();
  while ((await kube.listPods(name, '')).length > 0) {
    if (Date.now() - started > 60_000) {
      options.log(
        `the pods of namespace ${name} are still terminating; Kubernetes finishes deleting them`,
      );
      return;
    }
    await sleep(options.pollMs);
  }
}

/**
 * Deletes everything a saved state names: the namespace (where the cluster is kept), then the
 * provider's resources (node group, cluster, launch template; a kind cluster). Each is tried
 * whatever happened to the others; what could not be deleted comes back as warnings. Used by
 * the action's post step and `duetkit cluster delete --state FILE`.
 */
export async function cleanUpState(
  state: ClusterState,
  context: CleanupContext,
): Promise<string[]> {
  const warnings: string[] = [];
  const provider = getProvider(state.provider);
  if (state.namespace !== undefined && keepsCluster(state)) {
    try {
      const config = await provider.kubeConfigFor(state, context.env);
      await deleteNamespace(createKube(config), state.namespace.name, {
        retryMs: 30_000,
        pollMs: context.pollMs ?? 1000,
        log: context.log,
      });
      context.log(`deleted namespace ${state.namespace.name}`);
      delete state.namespace;
      context.onProgress?.(state);
    } catch (error) {
      warnings.push((error as Error).message);
    }
  }
  warnings.push(...(await provider.cleanUp(state, context)));
  return warnings;
}

/** True when the cluster outlives the run, so its namespace must be deleted by itself. */
function keepsCluster(state: ClusterState): boolean {
  if (state.provider === 'existing') return true;
  if (state.provider === 'eks') return state.eks?.reuse === true;
  return state.kind?.reuse === true;
}
