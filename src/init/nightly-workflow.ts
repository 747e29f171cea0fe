import type { ToolPlan, WorkflowStep } from './types.js';
import {
  DEFAULT_ACTION,
  inProject,
  OWNER_COMMENT,
  timeoutMinutes,
  type WorkflowFile,
  type WorkflowOptions,
} from './workflow-file.js';
import { commentAfter, documentText, newDocument } from './yaml-doc.js';

export const NIGHTLY_WORKFLOW_PATH = '.github/workflows/duetkit-nightly.yml';

/**
 * The nightly variability workflow `duetkit init --nightly` writes (examples/workflows/
 * nightly.yml with the tool's setup steps): an A/A duet of the default branch and a duet of it
 * against the previous nightly's commit, both published to the history, then the variability
 * report and its alert issues.
 */
export function nightlyWorkflow(plan: ToolPlan, options: WorkflowOptions): WorkflowFile {
  const steps: WorkflowStep[] = [
    { uses: 'actions/checkout@v4', with: { 'fetch-depth': 0 } },
    ...plan.steps.map((step) => inProject(step, options.dirInRepo)),
    {
      id: 'duetkit',
      uses: options.action,
      with: {
        scenario: options.scenarioInRepo,
        name: 'nightly',
        aa: true,
        publish: 'history',
        'fail-on': 'never',
      },
    },
    {
      id: 'steps',
      if: 'always()',
      uses: options.action,
      with: {
        scenario: options.scenarioInRepo,
        name: 'nightly-steps',
        'base-from-history': true,
        threshold: '0.5%',
        publish: 'history',
        'fail-on': 'never',
      },
    },
    {
      id: 'variability',
      if: 'always()',
      uses: options.action,
      with: { mode: 'variability', since: '90d', alert: 'issue' },
    },
  ];
  const doc = newDocument(
    {
      name: 'duetkit nightly',
      on: { schedule: [{ cron: '17 3 * * *' }], workflow_dispatch: null },
      permissions: { contents: 'write', issues: 'write' },
      concurrency: { group: 'duetkit-nightly', 'cancel-in-progress': false },
      jobs: {
        nightly: {
          'runs-on': 'ubuntu-latest',
          // two runs of the scenario: the A/A and the step duet
          'timeout-minutes': timeoutMinutes(options, 2),
          steps,
        },
      },
    },
    [
      `Nightly variability tracking, written by \`duetkit init --nightly\` (docs/variability.md):`,
      `${options.scenarioInRepo} runs on ${options.branch} as an A/A duet (the head against itself) and`,
      "against the previous nightly's commit (what landed since, judged by a paired duet); both are",
      'published to the history on gh-pages. The last step reports CV, MDE, A/A false positives,',
      'patterns, change points and steps on main in the job summary and keeps one alert issue per suite.',
    ],
  );
  commentAfter(doc, ['permissions', 'contents'], 'push the entry to the history branch');
  commentAfter(doc, ['permissions', 'issues'], 'alert: issue');
  commentAfter(
    doc,
    ['jobs', 'nightly', 'steps', 0, 'with', 'fetch-depth'],
    "commits of each change point's range",
  );
  const at = steps.findIndex((s) => s.id === 'duetkit');
  commentAfter(
    doc,
    ['jobs', 'nightly', 'steps', at, 'with', 'aa'],
    "tonight's noise, judged the way PRs are",
  );
  commentAfter(
    doc,
    ['jobs', 'nightly', 'steps', at, 'with', 'fail-on'],
    "an A/A regression is the runner's doing: reported, not failed",
  );
  commentAfter(
    doc,
    ['jobs', 'nightly', 'steps', at + 1, 'with', 'base-from-history'],
    "tonight's head against the previous nightly's commit",
  );
  commentAfter(
    doc,
    ['jobs', 'nightly', 'steps', at + 1, 'with', 'threshold'],
    'a step beyond ±0.5% is called',
  );
  if (options.action === DEFAULT_ACTION) {
    for (const i of [at, at + 1, at + 2])
      commentAfter(doc, ['jobs', 'nightly', 'steps', i, 'uses'], OWNER_COMMENT);
  }
  return { path: NIGHTLY_WORKFLOW_PATH, text: documentText(doc) };
}
