/**
 * Everything the CLI and the action use of cluster runs, as one module that the bundle builds
 * separately (dist/cluster.js) and `loadCluster` imports only when a run needs it: the AWS
 * SDK and the Kubernetes client would otherwise slow every `duetkit` command's start.
 */
export { runInCluster, newRunId } from './run.js';
export { cleanUpState } from './cleanup.js';
export { getProvider } from './registry.js';
export { awsClients, regionOf } from './eks-api.js';
export { reap } from './eks-reap.js';
