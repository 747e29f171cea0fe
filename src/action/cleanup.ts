import { readdir, readFile, readlink, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { KUBECONFIG_CONTENT_ENV } from '../cluster/env.js';
import { loadCluster } from '../pipeline/load-cluster.js';
import { isEmpty, type ClusterState } from '../cluster/state.js';
import { readGit } from '../git/run.js';

/** What the main step may have left behind, as it recorded it (empty strings: nothing). */
export interface Leftovers {
  worktrees: string;
  repository: string;
  cgroup: string;
}

/**
 * Removes whatever a run left when it could not clean up itself (a cancelled job, a killed
 * process): processes still running in its worktrees or cgroup, the cgroup, the worktrees.
 * Each step is attempted whatever happened to the others; problems come back as warnings.
 */
export async function cleanUp(left: Leftovers): Promise<string[]> {
  const warnings: string[] = [];
  const attempt = async (what: string, work: () => Promise<void>): Promise<void> => {
    try {
      await work();
    } catch (error) {
      warnings.push(`post: could not ${what}: ${(error as Error).message}`);
    }
  };
  if (left.cgroup !== '')
    await attempt(`remove cgroup ${left.cgroup}`, () => removeCgroup(left.cgroup));
  if (left.worktrees !== '') {
    await attempt(
      `stop processes in ${left.worktrees}`,
      async () => void (await killProcessesIn(left.worktrees)),
    );
    await attempt(`remove worktrees in ${left.worktrees}`, () =>
      removeWorktrees(left.worktrees, left.repository),
    );
  }
  return warnings;
}

/** Kills every process whose working directory is inside `dir` (Linux /proc). */
export async function killProcessesIn(dir: string): Promise<number[]> {
  const killed: number[] = [];
  const prefix = `${path.resolve(dir)}/`;
  for (const entry of await readdir('/proc').catch(() => [])) {
    const pid = Number(entry);
    if (!Number.isSafeInteger(pid) || pid === process.pid) continue;
    const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => null);
    if (cwd === null || !`${cwd}/`.startsWith(prefix)) continue;
    try {
      process.kill(pid, 'SIGKILL');
      killed.push(pid);
    } catch {
      // It ended by itself meanwhile.
    }
  }
  return killed;
}

async function removeCgroup(dir: string): Promise<void> {
  const children = (await readdir(dir, { withFileTypes: true }).catch(() => []))
    .filter((e) => e.isDirectory())
    .map((e) => path.join(dir, e.name));
  for (const child of children) await removeCgroup(child);
  const procs = await readFile(path.join(dir, 'cgroup.procs'), 'utf8').catch(() => null);
  if (procs === null) return; // already gone
  for (const pid of procs.split('\n').filter(Boolean).map(Number)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  // A killed process leaves the cgroup a moment later.
  for (let i = 0; ; i++) {
    try {
      await rmdir(dir);
      return;
    } catch (error) {
      if (i >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

async function removeWorktrees(dir: string, repository: string): Promise<void> {
  if (repository !== '') {
    const listed = await readGit(['worktree', 'list', '--porcelain'], { cwd: repository }).catch(
      () => '',
    );
    const prefix = `${path.resolve(dir)}/`;
    for (const line of listed.split('\n')) {
      const tree = line.startsWith('worktree ') ? line.slice('worktree '.length) : null;
      if (tree !== null && `${tree}/`.startsWith(prefix)) {
        await readGit(['worktree', 'remove', '--force', tree], { cwd: repository });
      }
    }
  }
  await rm(dir, { recursive: true, force: true });
  if (repository !== '') await readGit(['worktree', 'prune'], { cwd: repository });
}

/**
 * Deletes what a cluster run saved in its state (namespace, node group, cluster, launch
 * template; a kind cluster), when the main step could not (cancelled, killed). The kubeconfig
 * input is read again here: the post step sees the same inputs.
 */
export async function cleanUpCluster(saved: string, kubeconfig: string): Promise<string[]> {
  let state: ClusterState;
  try {
    state = JSON.parse(saved) as ClusterState;
  } catch {
    return [`post: the saved cluster state is not JSON: ${saved.slice(0, 200)}`];
  }
  if (isEmpty(state)) return [];
  const { cleanUpState } = await loadCluster();
  const env =
    kubeconfig === '' ? process.env : { ...process.env, [KUBECONFIG_CONTENT_ENV]: kubeconfig };
  const warnings = await cleanUpState(state, {
    env,
    log: (line) => console.log(`post: cluster: ${line}`),
  });
  return warnings.map((w) => `post: cluster run ${state.runId}: ${w}`);
}
