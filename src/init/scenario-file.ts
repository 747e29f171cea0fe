import { parse as parseYaml } from 'yaml';
import { parseScenario } from '../scenario/load.js';
import { budgetComment } from './suite-budget.js';
import type { ToolPlan } from './types.js';
import { commentAbove, commentAfter, documentText, flowList, newDocument } from './yaml-doc.js';

/** The refs a written scenario compares locally; the action replaces both with base and head. */
export const LOCAL_BASE_REF = 'HEAD~1';
export const LOCAL_HEAD_REF = 'HEAD';

export interface ScenarioFileOptions {
  /** The scenario's name: its suite in reports and the PR comment. */
  name: string;
  /** The project's directory inside its repository, `/`-separated; `''` at the root. */
  dirInRepo: string;
  /** How the user runs it, for the header: the file's path as `duetkit run` takes it. */
  runPath: string;
  /** The workflow that runs it, for the header; null when none is written. */
  workflowPath: string | null;
  /** Pairs (per benchmark); not written for a suite, which takes its pairs from its looks. */
  iterations: number;
  /** Time limit of the measurement, as the scenario writes it (`10m`; not `auto`). */
  budget: string;
}

/**
 * The scenario `duetkit init` writes for a tool, as YAML text with comments. The text is read
 * back through the scenario schema before it is returned, so a written scenario always loads;
 * a plan the schema refuses throws the schema's `ScenarioError` naming the field.
 */
export function scenarioText(plan: ToolPlan, options: ScenarioFileOptions): string {
  const dir = options.dirInRepo === '' ? {} : { dir: options.dirInRepo };
  const setup = plan.setup === undefined ? {} : { setup: plan.setup };
  const suite = plan.suite !== undefined && plan.workload.perBenchmark === true;
  const value = {
    name: options.name,
    mode: 'duet',
    versions: [
      { name: 'base', ref: LOCAL_BASE_REF, ...dir, ...setup },
      { name: 'head', ref: LOCAL_HEAD_REF, ...dir, ...setup },
    ],
    workload: {
      command: plan.workload.command,
      ...(plan.workload.format === undefined ? {} : { format: plan.workload.format }),
      ...(plan.workload.output === undefined ? {} : { output: plan.workload.output }),
      ...(plan.workload.perBenchmark === true ? { perBenchmark: true } : {}),
    },
    ...(suite ? {} : { iterations: options.iterations }),
    warmup: 1,
    ...(plan.timeout === undefined ? {} : { timeout: plan.timeout }),
    budget: options.budget,
    ...(suite ? { suite: plan.suite!.fields } : {}),
    isolation: 'auto',
    analysis: { level: 0.99, threshold: 0.05 },
  };
  const doc = newDocument(value, header(options));
  commentAbove(
    doc,
    ['versions'],
    [
      `Locally, the last commit (${LOCAL_HEAD_REF}) against the one before (${LOCAL_BASE_REF}), each checked out`,
      'as a temporary git worktree; the action replaces both refs with the base and head it compares.',
    ],
  );
  commentAbove(doc, ['workload'], plan.comments);
  for (const [i, version] of value.versions.entries()) {
    if (Array.isArray(version.setup)) flowList(doc, ['versions', i, 'setup']);
  }
  if (Array.isArray(plan.workload.command)) flowList(doc, ['workload', 'command']);
  if (!suite) {
    commentAfter(
      doc,
      ['iterations'],
      plan.workload.perBenchmark === true
        ? 'pairs per benchmark (each benchmark runs alone in both versions)'
        : 'pairs: both versions run at the same time, each on its own CPUs',
    );
  }
  commentAfter(doc, ['warmup'], 'pairs run first and discarded');
  if (plan.timeout !== undefined) commentAfter(doc, ['timeout'], 'per iteration');
  if (suite) {
    commentAbove(doc, ['budget'], budgetComment(plan, options.budget));
    commentAbove(
      doc,
      ['suite'],
      [
        'A suite under the budget (docs/suites.md): every benchmark is first screened (20 pairs),',
        'then the budget goes where the doubt is (looks at 60, 180, 540 pairs); the pairs come',
        'from these looks, not from an iteration count. Every field has a default.',
      ],
    );
  }
  commentAfter(doc, ['budget'], 'the run stops cleanly when this is spent and reports what it has');
  commentAfter(doc, ['analysis', 'level'], 'confidence level of the intervals');
  commentAfter(doc, ['analysis', 'threshold'], 'changes within ±5% count as unchanged');
  const text = documentText(doc);
  parseScenario(parseYaml(text), `the scenario written for ${plan.tool}`);
  return text;
}

function header(options: ScenarioFileOptions): string[] {
  return [
    'A duet of two versions of this repository, written by `duetkit init` (docs/init.md;',
    'every field: docs/scenario.md). Run it locally with',
    `  npx duetkit run ${options.runPath}`,
    options.workflowPath === null
      ? 'In the GitHub Action, its two refs become the base and head of the pull request.'
      : `In ${options.workflowPath}, its two refs become the base and head of the pull request.`,
  ];
}
