import * as core from '@actions/core';
import { isUserFacing } from '../errors.js';
import { createGitHubApi } from '../github/octokit-api.js';
import { abortOnSignals } from '../runner/signals.js';
import { bisectStep } from './bisect-step.js';
import { commentStep } from './comment-step.js';
import { parseInputs } from './inputs.js';
import { createCoreIo } from './io.js';
import { runStep, type StepDeps } from './run-step.js';
import { variabilityStep } from './variability-step.js';

/**
 * The action's main step. Inputs are read once; `run` benchmarks, reports and gates,
 * `comment` posts the comment of an earlier run, `variability` reports on the history,
 * `bisect` finds the commit that changed a benchmark. The only place that calls `setFailed`.
 */
async function main(): Promise<void> {
  const { signal, dispose } = abortOnSignals();
  try {
    const inputs = parseInputs((name) => core.getInput(name), process.cwd());
    const deps: StepDeps = {
      io: createCoreIo(),
      env: process.env,
      signal,
      api: createGitHubApi,
    };
    const failure =
      inputs.mode === 'run'
        ? await runStep(inputs, deps)
        : inputs.mode === 'comment'
          ? await commentStep(inputs, deps)
          : inputs.mode === 'bisect'
            ? await bisectStep(inputs, deps)
            : await variabilityStep(inputs, deps);
    if (failure !== null) core.setFailed(failure);
  } catch (error) {
    // A user's mistake reads as one line; anything else keeps its stack for a bug report.
    core.setFailed(isUserFacing(error) ? error.message : ((error as Error).stack ?? String(error)));
  } finally {
    dispose();
  }
}

await main();
