import type { BisectWorkloadInputs } from './bisect-inputs.js';
import { runBisect } from '../pipeline/bisect-run.js';
import { alertLine } from '../bisect/render.js';
import { bisectModeOf, bisectScenario } from '../bisect/workload.js';
import type { StepTarget } from '../variability/alert.js';
import type { ActionIo } from './io.js';

export interface NightlyBisectOptions {
  workload: BisectWorkloadInputs;
  /** The checkout (full history: `fetch-depth: 0`). */
  repo: string;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  io: ActionIo;
}

/**
 * `bisect: true` in the nightly: each step the alert announces tonight is bisected in this
 * job (its benchmark, between its two commits), and the result becomes the line for
 * it. A bisection that fails is a warning and a line saying so: the alert still goes out.
 */
export function nightlyBisector(
  options: NightlyBisectOptions,
): (targets: StepTarget[]) => Promise<Record<string, string>> {
  const { io, env, workload } = options;
  const server = env.GITHUB_SERVER_URL || 'https://github.com';
  const repository = env.GITHUB_REPOSITORY;
  const commitUrl = (id: string) => (repository ? `${server}/${repository}/commit/${id}` : null);
  return async (targets) => {
    const { mode, chooseMode } = bisectModeOf(workload.bisectMode, workload.scenario !== null);
    const scenario = await bisectScenario({
      ...(workload.scenario === null ? {} : { scenarioFile: workload.scenario }),
      cwd: options.repo,
      ...(workload.run === null ? {} : { command: workload.run }),
      ...(workload.setup === null ? {} : { setup: workload.setup }),
      ...(workload.iterations === null ? {} : { iterations: workload.iterations }),
      ...(workload.threshold === null ? {} : { threshold: workload.threshold }),
      ...(mode === undefined ? {} : { mode }),
      source: "the action's inputs (bisect: true)",
    });
    const lines: Record<string, string> = {};
    for (const t of targets) {
      io.info(`bisect: ${t.benchmark} between ${t.from.slice(0, 10)} and ${t.to.slice(0, 10)}`);
      try {
        const report = await runBisect({
          repo: options.repo,
          good: t.from,
          bad: t.to,
          scenario,
          benchmark: workload.benchmark ?? t.benchmark,
          threshold: workload.threshold ?? scenario.analysis.threshold,
          budget: workload.budget,
          firstParent: workload.firstParent,
          chooseMode,
          env,
          signal: options.signal,
          onNotice: (message) => io.warning(message),
          log: (line) => io.info(line),
        });
        lines[t.key] = alertLine(report, commitUrl);
      } catch (error) {
        if (options.signal.aborted) throw error;
        io.warning(`bisect of ${t.benchmark} failed: ${(error as Error).message}`);
        lines[t.key] = `bisect failed: ${(error as Error).message.split('\n')[0]}`;
      }
    }
    return lines;
  };
}
