import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { ClusterProviderName } from './schema.js';

/**
 * What a cluster run has created so far, saved the moment each resource exists (and the
 * moment before it is asked for, so a process killed mid-call still leaves its name): the
 * action's post step and `duetkit cluster delete --state FILE` delete exactly this.
 */
export interface ClusterState {
  schemaVersion: 1;
  runId: string;
  provider: ClusterProviderName;
  /** The per-run namespace, while it exists (existing clusters, and reused ones). */
  namespace?: { name: string; kubeconfig?: string; context?: string };
  eks?: EksState;
  kind?: { name: string; command: string; reuse: boolean };
}

export interface EksState {
  region: string;
  endpoint?: string;
  ec2Endpoint?: string;
  /** The cluster; deleted only while it carries this run's `duetkit:run-id` tag. */
  cluster?: string;
  nodegroup?: string;
  launchTemplate?: string;
  /** A reused cluster is kept: only the namespace is removed. */
  reuse: boolean;
}

/** Persists the state as it changes. */
export interface StateRecorder {
  readonly current: ClusterState;
  update(change: (state: ClusterState) => void): void;
}

/**
 * Keeps the state in memory and hands each new version to `save` synchronously (a file
 * rename, or the runner's state file through `core.saveState`), so a SIGKILL right after a
 * call returned cannot lose what it created.
 */
export function createStateRecorder(
  initial: ClusterState,
  save: (state: ClusterState) => void,
): StateRecorder {
  const state = structuredClone(initial);
  save(state);
  return {
    get current() {
      return state;
    },
    update(change) {
      change(state);
      save(structuredClone(state));
    },
  };
}

/** Saves to a JSON file, atomically (write then rename). */
export function fileSaver(file: string): (state: ClusterState) => void {
  return (state) => {
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(state, null, 2)}\n`);
    renameSync(temporary, file);
  };
}

export function readStateFile(file: string): ClusterState {
  const state = JSON.parse(readFileSync(file, 'utf8')) as ClusterState;
  if (state?.schemaVersion !== 1 || typeof state.runId !== 'string') {
    throw new Error(`${file} is not a duetkit cluster state file (schemaVersion 1)`);
  }
  return state;
}

export function removeStateFile(file: string): void {
  rmSync(file, { force: true });
}

/** True when nothing is left to delete. */
export function isEmpty(state: ClusterState): boolean {
  const eks = state.eks;
  return (
    state.namespace === undefined &&
    state.kind === undefined &&
    (eks === undefined ||
      eks.reuse ||
      (eks.cluster === undefined &&
        eks.nodegroup === undefined &&
        eks.launchTemplate === undefined))
  );
}
