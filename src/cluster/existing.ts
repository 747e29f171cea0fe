import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { KUBECONFIG_CONTENT_ENV } from './env.js';
import type { ClusterSpec } from './schema.js';
import { ClusterError, type ClusterProvider } from './types.js';

/**
 * provider: existing — a cluster someone else runs. duetkit only creates its namespace there
 * (cleanup.ts deletes it), so there is nothing of the provider's own to release.
 */
export const existingProvider: ClusterProvider = {
  name: 'existing',
  async acquire({ spec, baseDir, env }) {
    const config = loadKubeConfig(spec, baseDir, env);
    return {
      kubeConfig: config,
      name: config.getCurrentCluster()?.name ?? config.getCurrentContext(),
      kept: true,
      provisionSeconds: 0,
      billedSince: null,
      nodes: 1,
      release: async () => undefined,
    };
  },
  cleanUp: async () => [],
  async kubeConfigFor(state, env) {
    const where = state.namespace;
    return loadKubeConfig(
      {
        existing: {
          ...(where?.kubeconfig === undefined ? {} : { kubeconfig: where.kubeconfig }),
          ...(where?.context === undefined ? {} : { context: where.context }),
        },
      },
      process.cwd(),
      env,
    );
  },
};

/**
 * The kubeconfig of an existing cluster: the content in $DUETKIT_KUBECONFIG (a secret), else
 * `cluster.existing.kubeconfig` (relative to the scenario), else $KUBECONFIG or
 * ~/.kube/config; then `cluster.existing.context` if given.
 */
export function loadKubeConfig(
  spec: Pick<ClusterSpec, 'existing'>,
  baseDir: string,
  env: NodeJS.ProcessEnv,
): KubeConfig {
  const config = new KubeConfig();
  const content = env[KUBECONFIG_CONTENT_ENV];
  const file = spec.existing.kubeconfig;
  let source: string;
  try {
    if (content !== undefined && content.trim() !== '') {
      source = `$${KUBECONFIG_CONTENT_ENV}`;
      config.loadFromString(content);
    } else if (file !== undefined) {
      source = `cluster.existing.kubeconfig (${file})`;
      config.loadFromFile(path.resolve(baseDir, file));
    } else {
      source = env.KUBECONFIG ? `$KUBECONFIG (${env.KUBECONFIG})` : '~/.kube/config';
      loadDefault(config, env);
    }
  } catch (error) {
    throw new ClusterError(
      `cannot read the kubeconfig: ${(error as Error).message}; give one with cluster.existing.kubeconfig, the action's kubeconfig input, or $KUBECONFIG`,
    );
  }
  if (spec.existing.context !== undefined) {
    const names = config.getContexts().map((c) => c.name);
    if (!names.includes(spec.existing.context)) {
      throw new ClusterError(
        `cluster.existing.context: got "${spec.existing.context}"; the kubeconfig (${source}) has: ${names.join(', ') || 'no contexts'}`,
      );
    }
    config.setCurrentContext(spec.existing.context);
  }
  if (config.getCurrentCluster() === null) {
    throw new ClusterError(
      `the kubeconfig (${source}) has no current cluster; set cluster.existing.context to one of its contexts`,
    );
  }
  return config;
}

/**
 * What `kubectl` reads: the files of $KUBECONFIG (merged, the first one's context first) or
 * ~/.kube/config — from `env`, the run's environment, not this process's. client-node's own
 * `loadFromDefault` reads process.env and, finding nothing, falls back to
 * http://localhost:8080: here no kubeconfig is an error that says so.
 */
function loadDefault(config: KubeConfig, env: NodeJS.ProcessEnv): void {
  const files = (env.KUBECONFIG ?? '').split(path.delimiter).filter((f) => f !== '');
  if (files.length === 0) {
    const home = env.HOME ?? os.homedir();
    const file = path.join(home, '.kube', 'config');
    if (!existsSync(file)) {
      throw new Error(`$KUBECONFIG is not set and ${file} does not exist`);
    }
    files.push(file);
  }
  config.loadFromFile(files[0]!);
  for (const file of files.slice(1)) {
    const more = new KubeConfig();
    more.loadFromFile(file);
    config.mergeConfig(more, true);
  }
}
