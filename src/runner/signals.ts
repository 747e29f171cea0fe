/**
 * Turns SIGINT/SIGTERM into an abort for the duration of a run, so the runner can stop both
 * sides, remove its cgroups and worktrees, and save what it measured. A second signal while
 * cleaning up is ignored on purpose: cleanup is quick, and a half-removed cgroup would leak.
 * Returns the signal and a function that removes the handlers.
 */
export function abortOnSignals(signals: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM']): {
  signal: AbortSignal;
  dispose: () => void;
} {
  const controller = new AbortController();
  const handler = (name: NodeJS.Signals): void => {
    if (!controller.signal.aborted) controller.abort(name);
  };
  for (const name of signals) process.on(name, handler);
  return {
    signal: controller.signal,
    dispose: () => signals.forEach((name) => process.off(name, handler)),
  };
}
