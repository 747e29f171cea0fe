import { eksProvider } from './eks.js';
import { existingProvider } from './existing.js';
import { kindProvider } from './kind.js';
import type { ClusterProviderName } from './schema.js';
import type { ClusterProvider } from './types.js';

/** One entry per cluster provider. */
const PROVIDERS: Record<ClusterProviderName, ClusterProvider> = {
  existing: existingProvider,
  eks: eksProvider,
  kind: kindProvider,
};

export function getProvider(name: ClusterProviderName): ClusterProvider {
  return PROVIDERS[name];
}
