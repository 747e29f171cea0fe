/** Names of the values the main step hands to the post step (`core.saveState`). */
export const STATE = {
  /** Directory under which the run made its git worktrees. */
  worktrees: 'worktrees',
  /** The repository those worktrees belong to. */
  repository: 'repository',
  /** The run's cgroup directory, when it made one. */
  cgroup: 'cgroup',
  /** A cluster run's resources (src/cluster/state.ts), JSON, saved as each one exists. */
  cluster: 'cluster',
} as const;
