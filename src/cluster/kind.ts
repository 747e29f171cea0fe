import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { stringify } from 'yaml';
import { cpuManagerSettings, loadManifest } from './manifests.js';
import type { ClusterSpec } from './schema.js';
import type { ClusterState } from './state.js';
import { ClusterError, type ClusterProvider } from './types.js';

/**
 * provider: kind — a local cluster in Docker (your machine, or a runner with Docker): created
 * from k8s/kind-config.yaml with the static CPU manager, the benchmark image loaded into it
 * when Docker has it, deleted afterwards (or kept under `cluster.reuse`).
 */
export const kindProvider: ClusterProvider = {
  name: 'kind',
  async acquire(context) {
    const spec = context.spec;
    const name = spec.reuse ?? `duetkit-${context.runId}`;
    const command = spec.kind.command;
    const kept = spec.reuse !== undefined;
    const started = Date.now();
    const existing = await kind(command, ['get', 'clusters'], context.env);
    const present = existing.split('\n').includes(name);
    if (!present) {
      context.state.update((s) => void (s.kind = { name, command, reuse: kept }));
      const dir = await mkdtemp(path.join(os.tmpdir(), 'duetkit-kind-'));
      try {
        const config = path.join(dir, 'kind-config.yaml');
        await writeFile(config, kindConfig(name, spec));
        context.log(`creating kind cluster ${name}`);
        await kind(
          command,
          ['create', 'cluster', '--name', name, '--config', config, '--wait', '5m'],
          context.env,
        );
      } catch (error) {
        await kind(command, ['delete', 'cluster', '--name', name], context.env).catch(
          () => undefined,
        );
        context.state.update((s) => void delete s.kind);
        throw error;
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    } else if (!kept) {
      throw new ClusterError(
        `a kind cluster named ${name} already exists; delete it or set cluster.reuse`,
      );
    }
    if (spec.imagePullPolicy !== 'Always' && (await dockerHas(spec.image, context.env))) {
      context.log(`loading image ${spec.image} into kind cluster ${name}`);
      await kind(command, ['load', 'docker-image', spec.image, '--name', name], context.env);
    }
    return {
      kubeConfig: await kubeConfigOf(command, name, context.env),
      name,
      kept,
      provisionSeconds: present ? 0 : Math.round(Date.now() - started) / 1000,
      billedSince: null,
      nodes: 1,
      release: async () => {
        if (kept) return;
        await kind(command, ['delete', 'cluster', '--name', name], context.env);
        context.state.update((s) => void delete s.kind);
      },
    };
  },
  async cleanUp(state, context) {
    if (state.kind === undefined || state.kind.reuse) return [];
    try {
      await kind(state.kind.command, ['delete', 'cluster', '--name', state.kind.name], context.env);
      context.log(`deleted kind cluster ${state.kind.name}`);
      delete state.kind;
      context.onProgress?.(state);
      return [];
    } catch (error) {
      return [(error as Error).message];
    }
  },
  kubeConfigFor: (state: ClusterState, env) =>
    kubeConfigOf(state.kind!.command, state.kind!.name, env),
};

/** k8s/kind-config.yaml for a cluster: its name, node image, and the static CPU manager. */
export function kindConfig(name: string, spec: Pick<ClusterSpec, 'kind'>): string {
  const config = loadManifest<{
    name: string;
    nodes: { role: string; image?: string; kubeadmConfigPatches?: string[] }[];
  }>('kind-config.yaml');
  config.name = name;
  const kubelet = stringify({ kind: 'KubeletConfiguration', ...cpuManagerSettings() });
  config.nodes = config.nodes.map((node) => ({
    ...node,
    ...(spec.kind.nodeImage === undefined ? {} : { image: spec.kind.nodeImage }),
    kubeadmConfigPatches: [kubelet],
  }));
  return stringify(config);
}

async function kubeConfigOf(
  command: string,
  name: string,
  env: NodeJS.ProcessEnv,
): Promise<KubeConfig> {
  const config = new KubeConfig();
  config.loadFromString(await kind(command, ['get', 'kubeconfig', '--name', name], env));
  return config;
}

async function dockerHas(image: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  return new Promise((resolve) => {
    execFile('docker', ['image', 'inspect', image], { env }, (error) => resolve(error === null));
  });
}

/** Runs the kind CLI; fails with its own error output. */
export function kind(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { env, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      if (error === null) {
        resolve(stdout);
        return;
      }
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
      reject(
        new ClusterError(
          missing
            ? `cluster.kind.command: "${command}" is not installed (https://kind.sigs.k8s.io/docs/user/quick-start/#installation)`
            : `${command} ${args.join(' ')} failed: ${stderr.trim().split('\n').slice(-5).join(' | ') || error.message}`,
        ),
      );
    });
  });
}
