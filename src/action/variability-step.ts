import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { UserError } from '../errors.js';
import { PermissionError } from '../github/api.js';
import { readHistory } from '../history/read.js';
import type { VariabilityInputs } from './variability-inputs.js';
import { analyzeVariability } from '../variability/analyze.js';
import { addCommits, gitCommitLister } from '../variability/commits.js';
import { createIssueApi, type IssueApi } from '../variability/issue-api.js';
import { alertIssue } from '../variability/issue-alert.js';
import { renderVariability } from '../variability/render.js';
import { historyRemote } from './history-step.js';
import type { ActionIo } from './io.js';
import { nightlyBisector } from './variability-bisect.js';
import { sinceStart } from '../scenario/values.js';

export interface VariabilityDeps {
  io: ActionIo;
  env: NodeJS.ProcessEnv;
  /** Interrupts a bisection (`bisect: true`). */
  signal?: AbortSignal;
  now?: () => Date;
  issues?: (token: string, repository: { owner: string; repo: string }) => IssueApi;
}

/**
 * `mode: variability`, the nightly job's report: reads the history, analyses it, puts the
 * report in the job summary and `variability.json` in the results directory, and with
 * `alert: issue` opens or updates the suite's alert issue. A token that may not write issues
 * is a warning, never a failure.
 */
export async function variabilityStep(
  inputs: VariabilityInputs,
  deps: VariabilityDeps,
): Promise<string | null> {
  const { io, env } = deps;
  const now = (deps.now ?? (() => new Date()))();
  const remote = historyRemote({ inputs: inputs.history, githubToken: inputs.token, env });
  if (remote === null) {
    throw new UserError(
      'Input "history-repository": required outside GitHub Actions (no GITHUB_REPOSITORY)',
    );
  }
  const token = inputs.history.token !== '' ? inputs.history.token : inputs.token;
  const read = await readHistory({
    remote,
    branch: inputs.history.branch,
    path: inputs.history.path,
    suite: inputs.suite ?? undefined,
    token: token === '' ? undefined : token,
    env,
  });
  for (const w of read.warnings) io.warning(w);
  const since = sinceStart(inputs.since, now);
  const report = analyzeVariability(read.entries, {
    now,
    warnings: read.warnings,
    settings: { since, suite: inputs.suite },
  });
  report.warnings.push(...(await addCommits(report, gitCommitLister(inputs.workingDirectory))));
  const markdown = renderVariability(report);
  await io.appendSummary(markdown);
  const dir =
    inputs.resultsDirectory ?? path.join(env.RUNNER_TEMP || os.tmpdir(), 'duetkit', 'variability');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, 'variability.json');
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(path.join(dir, 'variability.md'), markdown);
  const changePoints = report.suites.reduce(
    (n, s) => n + s.benchmarks.reduce((k, b) => k + b.changePoints.length, 0),
    0,
  );
  const aaCalled = report.suites.reduce((n, s) => n + (s.aa?.latest?.calledChanged.length ?? 0), 0);
  io.setOutput('variability-path', file);
  io.setOutput('change-points', changePoints);
  io.setOutput('aa-called-changed', aaCalled);
  io.setOutput(
    'steps-called',
    report.suites.reduce((n, s) => n + (s.paired?.latest?.called.length ?? 0), 0),
  );
  if (inputs.alert === 'issue') await alert(inputs, deps, report.suites, now);
  return null;
}

async function alert(
  inputs: VariabilityInputs,
  deps: VariabilityDeps,
  suites: Parameters<typeof alertIssue>[1][],
  now: Date,
): Promise<void> {
  const { io, env } = deps;
  const [owner, repo] = (env.GITHUB_REPOSITORY ?? '').split('/');
  if (inputs.token === '' || !owner || !repo) {
    io.warning('alert: issue needs github-token and GITHUB_REPOSITORY: no alert issue');
    return;
  }
  const api = (deps.issues ?? createIssueApi)(inputs.token, { owner, repo });
  for (const suite of suites) {
    try {
      const outcome = await alertIssue(
        api,
        suite,
        now,
        inputs.bisect === null
          ? undefined
          : nightlyBisector({
              workload: inputs.bisect,
              repo: inputs.workingDirectory,
              env,
              signal: deps.signal ?? new AbortController().signal,
              io,
            }),
      );
      if (outcome.action !== 'none')
        io.info(`alert issue of ${suite.suite}: ${outcome.action} ${outcome.url}`);
    } catch (error) {
      if (!(error instanceof PermissionError)) throw error;
      io.warning(`${error.message}: no alert issue for ${suite.suite}`);
    }
  }
}
