import * as core from '@actions/core';
import { cleanUp, cleanUpCluster } from './cleanup.js';
import { STATE } from './state.js';

/**
 * The action's post step: removes what the main step left behind (worktrees, cgroups,
 * processes). It warns and never fails: cleanup trouble must not turn a green job red.
 */
try {
  const warnings = await cleanUp({
    worktrees: core.getState(STATE.worktrees),
    repository: core.getState(STATE.repository),
    cgroup: core.getState(STATE.cgroup),
  });
  for (const warning of warnings) core.warning(warning);
  const cluster = core.getState(STATE.cluster);
  if (cluster !== '') {
    for (const warning of await cleanUpCluster(cluster, core.getInput('kubeconfig'))) {
      core.warning(warning);
    }
  }
} catch (error) {
  core.warning(`post: cleanup failed: ${(error as Error).message}`);
}
