import { mkdir, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { analyzeSamples } from '../analyze/analyze.js';
import { unmeasuredCount } from '../analyze/report.js';
import type { ComparisonReport } from '../contracts/comparison.js';
import { createGitHistory, type GitHistory } from '../git/history.js';
import type { GitHubApi } from '../github/api.js';
import { pullRequestOf, readEvent } from '../github/event.js';
import { commentMarker } from '../github/upsert-comment.js';
import { codeBlock, escapeInline } from '../report/escape.js';
import { renderMarkdown } from '../report/markdown.js';
import { runMetaOf } from '../report/run-meta.js';
import { runScenario } from '../pipeline/local-run.js';
import { loadCluster } from '../pipeline/load-cluster.js';
import { KUBECONFIG_CONTENT_ENV } from '../cluster/env.js';
import type { IsolationReport } from '../contracts/isolation.js';
import { writeSamples } from '../pipeline/write-samples.js';
import { explainReport, profilingFor } from '../pipeline/profile-run.js';
import { gateFailure, overallVerdict } from './gate.js';
import { previousRunFromHistory, publishToHistory, trendsForComment } from './history-step.js';
import { InputError } from './input-error.js';
import type { RunInputs } from './inputs.js';
import type { ActionIo } from './io.js';
import { publishComment } from './publish.js';
import { resolveBaseHead } from './refs.js';
import { RESULT_FILES, writeResult, type RunRecord } from './results.js';
import { scenarioForAction } from './scenario.js';
import { STATE } from './state.js';

export interface StepDeps {
  io: ActionIo;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  /** The GitHub API for a token and repository (Octokit; tests point it at a local server). */
  api: (token: string, repository: { owner: string; repo: string }) => GitHubApi;
  gitAt?: (cwd: string) => GitHistory;
}

/**
 * `mode: run`: base and head found, the scenario run, results written (samples, comparison,
 * comment, run record), the report put in the job summary and the PR comment, outputs set.
 * Returns why the step fails (the gate, or a failed run), or null.
 */
export async function runStep(inputs: RunInputs, deps: StepDeps): Promise<string | null> {
  const { io, env } = deps;
  const event = await readEvent(env);
  const git = (deps.gitAt ?? createGitHistory)(inputs.workingDirectory);
  const history = { inputs: inputs.history, githubToken: inputs.token, env };
  const aaOfHead = async (how: string) => {
    // A/A: the head measured against itself (both worktrees at one commit)
    const head = inputs.headRef ?? event.sha ?? 'HEAD';
    const refs = await resolveBaseHead({ baseRef: head, headRef: head }, event, git);
    return { ...refs, how };
  };
  const { loaded, suite, baseHead } = await scenarioForAction(inputs, async (name) => {
    if (inputs.aa) return aaOfHead('aa: the head against itself');
    if (!inputs.baseFromHistory) return resolveBaseHead(inputs, event, git);
    if (pullRequestOf(event) !== null) {
      throw new InputError(
        'base-from-history',
        `true is for runs of a branch (schedule, workflow_dispatch, push), whose runs the history keeps; on "${event.name}" the base is the PR's merge base: remove it`,
      );
    }
    const previous = await previousRunFromHistory(history, name, env.GITHUB_REF || null, io);
    if (previous === null) {
      io.notice(
        `base-from-history: no earlier complete run of "${name}" in the history (${inputs.history.branch}): tonight is an A/A of the head, the next run compares with it`,
      );
      return aaOfHead('base-from-history: no earlier run, the head against itself');
    }
    const refs = await resolveBaseHead(
      { baseRef: previous.commit, headRef: inputs.headRef },
      event,
      git,
    );
    return {
      ...refs,
      how: `base-from-history: the commit of run ${previous.runId} (${previous.at.slice(0, 16)}Z)${refs.base === refs.head ? ', the head itself: nothing new since, an A/A' : ''}`,
    };
  });
  if (baseHead !== null) {
    io.info(`base ${baseHead.base} (${baseHead.how}), head ${baseHead.head}`);
  }
  const dir =
    inputs.resultsDirectory ??
    path.join(env.RUNNER_TEMP || os.tmpdir(), 'duetkit', suite.replace(/[^\w.-]+/g, '_'));
  await mkdir(dir, { recursive: true });
  const worktrees = await mkdtemp(path.join(env.RUNNER_TEMP || os.tmpdir(), 'duetkit-run-'));
  io.saveState(STATE.worktrees, worktrees);
  io.saveState(STATE.repository, loaded.baseDir);
  io.setOutput('results-directory', dir);

  const options = {
    signal: deps.signal,
    env,
    worktreeParent: worktrees,
    ...(inputs.seed === null ? {} : { seed: inputs.seed }),
    onIsolation: (report: IsolationReport) => {
      if (report.cgroup !== null) io.saveState(STATE.cgroup, report.cgroup);
      io.info(`measuring ${suite} (${loaded.scenario.mode}), isolation ${report.kind}`);
      for (const warning of report.warnings) io.warning(warning);
    },
    onNotice: (message: string) => io.warning(message),
  };
  // Profiles of base and head after the verdict, into the results directory (the artifact).
  const profiling = profilingFor(loaded.scenario, {
    ...(inputs.profile === null ? {} : { policy: inputs.profile }),
    resultsDir: dir,
    onWarning: (message) => io.warning(message),
  });
  const samples =
    loaded.scenario.cluster === undefined
      ? await runScenario(loaded, { ...options, afterMeasured: profiling.afterMeasured })
      : await (
          await loadCluster()
        ).runInCluster(loaded, {
          ...options,
          env:
            inputs.kubeconfig === null
              ? env
              : { ...env, [KUBECONFIG_CONTENT_ENV]: inputs.kubeconfig },
          log: (line) => io.info(`cluster: ${line}`),
          // The post step deletes whatever this names, whatever happens to this step.
          saveState: (state) => io.saveState(STATE.cluster, JSON.stringify(state)),
        });
  const samplesPath = path.join(dir, RESULT_FILES.samples);
  await writeSamples(samplesPath, samples);
  io.setOutput('samples-path', samplesPath);
  const meta = runMetaOf(samples, suite, runnerLabel(env));
  if (samples.stopReason === 'failed' || samples.stopReason === 'interrupted') {
    const why = `the run ${samples.stopReason}: ${samples.error ?? 'no reason given'}`;
    await io.appendSummary(
      `### duetkit: ${escapeInline(suite)}\n\n**The run ${samples.stopReason}**; samples gathered until then: \`${RESULT_FILES.samples}\`.\n\n${codeBlock(samples.error ?? '')}\n`,
    );
    io.setOutput('verdict', 'error');
    return `duetkit: ${why}`;
  }

  // profiles.json, already written beside the samples, explains the report: the `explain`
  // blocks, and the differential flame graphs in the results directory (the artifact).
  const { profiles } = profiling;
  const { report } = await explainReport(analyzeSamples(samples), samples, profiles, dir, (m) =>
    io.warning(m),
  );
  if (profiles !== null) {
    io.info(
      `profiles: ${profiles.pairs.length} benchmark(s) (${profiles.policy}), ${profiles.seconds.toFixed(1)} s of profiling`,
    );
  }
  const pr = pullRequestOf(event);
  if (pr !== null && inputs.history.publish === 'history') {
    const trends = await trendsForComment(history, suite, io);
    if (trends !== undefined) meta.trends = trends;
  }
  const markdown = renderMarkdown(report, meta);
  const record: RunRecord = {
    schemaVersion: 1,
    suite,
    pullRequest: pr === null ? null : { number: pr.number, headSha: pr.headSha },
    meta,
  };
  io.setOutput(
    'comparison-path',
    await writeResult(dir, RESULT_FILES.comparison, JSON.stringify(report, null, 2)),
  );
  io.setOutput(
    'comment-path',
    await writeResult(dir, RESULT_FILES.comment, `${commentMarker(suite)}\n${markdown}`),
  );
  await writeResult(dir, RESULT_FILES.run, JSON.stringify(record, null, 2));
  await io.appendSummary(markdown);
  setCountOutputs(report, io);

  let url = '';
  if (pr === null) io.info(`no PR comment: "${event.name}" is not a pull_request event`);
  else if (pr.fork && inputs.comment !== 'never') {
    io.notice(
      `PR #${pr.number} comes from a fork, whose token is read-only: no comment from this workflow; the results directory ${dir} holds it for the workflow_run pair (docs/action.md#pull-requests-from-forks)`,
    );
  } else {
    url = await publishComment(
      {
        issue: pr.number,
        suite,
        markdown,
        policy: inputs.comment,
        report,
        api:
          inputs.token === '' || event.repository === null
            ? null
            : deps.api(inputs.token, event.repository),
      },
      io,
    );
  }
  io.setOutput('comment-url', url);
  const gate = gateFailure(report, inputs.failOn);
  if (inputs.history.publish !== 'history') return gate;
  const published = await publishToHistory(
    history,
    event,
    { resultsDir: dir, suite, repoDir: inputs.workingDirectory },
    io,
  );
  return [gate, published].filter((f) => f !== null).join('; ') || null;
}

/** Sets `verdict`, `regressions`, `improvements`, `inconclusive` and `unmeasured`. */
export function setCountOutputs(report: ComparisonReport, io: ActionIo): void {
  io.setOutput('verdict', overallVerdict(report.summary));
  io.setOutput('regressions', report.summary.regression);
  io.setOutput('improvements', report.summary.improvement);
  io.setOutput('inconclusive', report.summary.inconclusive);
  io.setOutput('unmeasured', unmeasuredCount(report.summary));
}

/** "GitHub Actions runner 'name' (Linux X64, ubuntu24)" from the runner's variables. */
function runnerLabel(env: NodeJS.ProcessEnv): string | undefined {
  if (!env.RUNNER_NAME) return undefined;
  const details = [env.RUNNER_OS, env.RUNNER_ARCH, env.ImageOS, env.ImageVersion].filter(Boolean);
  return `GitHub Actions runner "${env.RUNNER_NAME}"${details.length > 0 ? ` (${details.join(' ')})` : ''}`;
}
