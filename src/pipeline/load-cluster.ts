import { fileURLToPath } from 'node:url';

export type ClusterModule = typeof import('./cluster-entry.js');

/**
 * The cluster code, loaded on demand: dist/cluster.js beside the bundle that imports it, or
 * src/pipeline/cluster-entry.ts when running from the sources (tsx, tests). The specifier is computed
 * at run time so the bundler leaves the import alone.
 */
export async function loadCluster(): Promise<ClusterModule> {
  const here = import.meta.url;
  const file = here.endsWith('.ts')
    ? fileURLToPath(new URL('./cluster-entry.ts', here))
    : fileURLToPath(new URL('./cluster.js', here));
  return (await import(file)) as ClusterModule;
}
