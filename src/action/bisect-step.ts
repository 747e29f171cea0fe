import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BisectInputs } from './bisect-inputs.js';
import { runBisect } from '../pipeline/bisect-run.js';
import { renderBisect } from '../bisect/render.js';
import { bisectModeOf, bisectScenario } from '../bisect/workload.js';
import type { ActionIo } from './io.js';

export interface BisectDeps {
  io: ActionIo;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
}

/**
 * `mode: bisect` (e.g. on `workflow_dispatch`): bisects good..bad in the checkout, puts the
 * report in the job summary and `bisect.json` in the results directory, and sets the outputs
 * `bisect-status`, `culprit` (empty unless one commit was pinned) and `bisect-path`. Finding
 * nothing is no failure.
 */
export async function bisectStep(inputs: BisectInputs, deps: BisectDeps): Promise<string | null> {
  const { io, env } = deps;
  const { mode, chooseMode } = bisectModeOf(inputs.bisectMode, inputs.scenario !== null);
  const scenario = await bisectScenario({
    ...(inputs.scenario === null ? {} : { scenarioFile: inputs.scenario }),
    cwd: inputs.workingDirectory,
    ...(inputs.run === null ? {} : { command: inputs.run }),
    ...(inputs.setup === null ? {} : { setup: inputs.setup }),
    ...(inputs.iterations === null ? {} : { iterations: inputs.iterations }),
    ...(inputs.threshold === null ? {} : { threshold: inputs.threshold }),
    ...(mode === undefined ? {} : { mode }),
    source: "the action's inputs",
  });
  const report = await runBisect({
    repo: inputs.workingDirectory,
    good: inputs.good,
    bad: inputs.bad,
    scenario,
    benchmark: inputs.benchmark,
    threshold: inputs.threshold ?? scenario.analysis.threshold,
    budget: inputs.budget,
    firstParent: inputs.firstParent,
    chooseMode,
    env,
    signal: deps.signal,
    onNotice: (message) => io.warning(message),
    log: (line) => io.info(line),
  });
  const markdown = renderBisect(report);
  await io.appendSummary(markdown);
  const dir =
    inputs.resultsDirectory ?? path.join(env.RUNNER_TEMP || os.tmpdir(), 'duetkit', 'bisect');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, 'bisect.json');
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  const pinned = report.steps.filter((s) => s.unresolved === null && s.confirmed);
  io.setOutput('bisect-status', report.status);
  io.setOutput('culprit', pinned.map((s) => s.culprit.id).join(' '));
  io.setOutput('bisect-path', file);
  return null;
}
