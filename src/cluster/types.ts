import type { KubeConfig } from '@kubernetes/client-node';
import type { ClusterProviderName, ClusterSpec } from './schema.js';
import type { ClusterState, StateRecorder } from './state.js';
import { UserError } from '../errors.js';

/** A cluster ready for a run, and how to give it back. */
export interface AcquiredCluster {
  kubeConfig: KubeConfig;
  /** The cluster's name (EKS or kind name, or the kubeconfig's cluster entry). */
  name: string;
  /** True when the cluster outlives the run (existing, or `reuse`). */
  kept: boolean;
  /** Seconds spent creating it (0 when it existed). */
  provisionSeconds: number;
  /** When duetkit started paying for its nodes (null: not duetkit's to pay, existing). */
  billedSince: Date | null;
  /** Nodes billed while it lives. */
  nodes: number;
  /** Deletes what `acquire` created, unless the cluster is kept. Never throws for a gone one. */
  release(): Promise<void>;
}

export interface ProviderContext {
  spec: ClusterSpec;
  runId: string;
  /** Directory relative paths of the scenario start from. */
  baseDir: string;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  state: StateRecorder;
  /** Progress for the user: one line each. */
  log: (line: string) => void;
  /** owner/name, for the `duetkit:repository` tag. */
  repository: string;
  /** When everything created must be gone (the `duetkit:expires-at` tag). */
  expiresAt: Date;
  /** Whole CPUs the benchmark pod will ask for (a node must have more). */
  cpus: number;
}

/** How to delete what a saved state names (the post step, `duetkit cluster delete`). */
export interface CleanupContext {
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
  /** Called after each resource is gone, with the state left. */
  onProgress?: (state: ClusterState) => void;
  /** Polling interval while waiting for deletions, ms (tests shorten it). */
  pollMs?: number;
}

/** One entry per cluster provider: everything about a provider lives in its own file. */
export interface ClusterProvider {
  readonly name: ClusterProviderName;
  acquire(context: ProviderContext): Promise<AcquiredCluster>;
  /**
   * Deletes the provider's resources a state names (not the namespace: see cleanup.ts).
   * Returns warnings; each resource is tried whatever happened to the others.
   */
  cleanUp(state: ClusterState, context: CleanupContext): Promise<string[]>;
  /** A kubeconfig for the cluster a state names (to delete its namespace afterwards). */
  kubeConfigFor(state: ClusterState, env: NodeJS.ProcessEnv): Promise<KubeConfig>;
}

/** A cluster step that could not be done: one line for the user, naming what failed. */
export class ClusterError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = 'RunError';
  }
}
