/**
 * Everything the CLI and the action use of cluster runs, as one module that the bundle builds
 * separately (dist/cluster.js) and `loadCluster` imports only when a run needs it: the AWS
 * SDK and the Kubernetes client would otherwise slow every `duetkit` command's start.
 */
export { runInCluster, newRunId } from './cluster-run.js';
export { cleanUpState } from '../cluster/cleanup.js';
export { getProvider } from '../cluster/registry.js';
export { awsClients, regionOf } from '../cluster/eks-api.js';
export { reap } from '../cluster/eks-reap.js';
