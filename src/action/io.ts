import * as core from '@actions/core';

/**
 * What the action tells the runner: log lines, outputs, the job summary, state for the post
 * step. An interface so the steps can be exercised without a runner; only `main.ts` turns a
 * failure into `setFailed`.
 */
export interface ActionIo {
  info(message: string): void;
  notice(message: string): void;
  warning(message: string): void;
  setOutput(name: string, value: string | number): void;
  /** Appends markdown to the job summary (`$GITHUB_STEP_SUMMARY`). */
  appendSummary(markdown: string): Promise<void>;
  /** Hands a value to the post step. */
  saveState(name: string, value: string): void;
}

export function createCoreIo(): ActionIo {
  return {
    info: (message) => core.info(message),
    notice: (message) => core.notice(message),
    warning: (message) => core.warning(message),
    setOutput: (name, value) => core.setOutput(name, value),
    appendSummary: async (markdown) => {
      if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(markdown, true).write();
      else core.info(markdown);
    },
    saveState: (name, value) => core.saveState(name, value),
  };
}
