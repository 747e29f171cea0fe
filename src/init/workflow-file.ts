import { durationSeconds } from '../scenario/values.js';
import type { ToolPlan, WorkflowStep } from './types.js';
import { commentAfter, documentText, flowList, newDocument } from './yaml-doc.js';

/** What the docs and examples call the action; `--action` replaces it. */
export const DEFAULT_ACTION = 'OWNER/duetkit@v1';
export const WORKFLOW_PATH = '.github/workflows/duetkit.yml';
export const COMMENT_WORKFLOW_PATH = '.github/workflows/duetkit-comment.yml';
/** The bench workflow's name: the fork-safe comment workflow runs after the workflow so named. */
const WORKFLOW_NAME = 'duetkit';
const ARTIFACT = 'duetkit-results';
export const OWNER_COMMENT = 'OWNER: the owner of the duetkit action (or init --action)';

/** Inputs of the setup actions that name a file: relative to the project, moved to the repository's root. */
const FILE_INPUTS = new Set([
  'go-version-file',
  'python-version-file',
  'node-version-file',
  'java-version-file',
  'cache-dependency-path',
]);

export interface WorkflowOptions {
  /** `uses:` of the duetkit step. */
  action: string;
  /** The scenario's path from the repository's root. */
  scenarioInRepo: string;
  /** The project's directory inside its repository, `/`-separated; `''` at the root. */
  dirInRepo: string;
  /** The branch whose pushes are benchmarked too (single workflow only). */
  branch: string;
  /** The two-workflow pair for PRs from forks, instead of one workflow. */
  forkSafe: boolean;
  /** The scenario's budget (`10m`), to give the job time for it and the builds. */
  budget: string;
}

/** A file to write: its path from the repository's root and its text. */
export interface WorkflowFile {
  path: string;
  text: string;
}

/**
 * The workflow(s) `duetkit init` writes: the PR gate of examples/workflows/pr-gate.yml, or
 * the fork-safe pair of examples/workflows/fork-safe-*.yml, with the tool's setup steps.
 */
export function workflowFiles(plan: ToolPlan, options: WorkflowOptions): WorkflowFile[] {
  return options.forkSafe
    ? [
        { path: WORKFLOW_PATH, text: benchWorkflow(plan, options) },
        { path: COMMENT_WORKFLOW_PATH, text: commentWorkflow(options.action) },
      ]
    : [{ path: WORKFLOW_PATH, text: benchWorkflow(plan, options) }];
}

function benchWorkflow(plan: ToolPlan, options: WorkflowOptions): string {
  const steps: WorkflowStep[] = [
    { uses: 'actions/checkout@v4', with: { 'fetch-depth': 0 } },
    ...plan.steps.map((step) => inProject(step, options.dirInRepo)),
    {
      id: 'duetkit',
      uses: options.action,
      with: {
        scenario: options.scenarioInRepo,
        'fail-on': 'regression',
        ...(options.forkSafe ? { comment: 'never' } : { comment: 'on-change' }),
      },
    },
    {
      if: "always() && steps.duetkit.outputs.results-directory != ''",
      uses: 'actions/upload-artifact@v4',
      with: {
        name: ARTIFACT,
        path: '${{ steps.duetkit.outputs.results-directory }}',
        ...(options.forkSafe ? { 'retention-days': 7 } : {}),
      },
    },
  ];
  const on = options.forkSafe
    ? { pull_request: null }
    : { pull_request: null, push: { branches: [options.branch] } };
  const permissions = options.forkSafe
    ? { contents: 'read' }
    : { contents: 'read', 'pull-requests': 'write' };
  const doc = newDocument(
    {
      name: WORKFLOW_NAME,
      on,
      permissions,
      jobs: {
        bench: { 'runs-on': 'ubuntu-latest', 'timeout-minutes': timeoutMinutes(options), steps },
      },
    },
    options.forkSafe ? forkSafeHeader(options) : gateHeader(options),
  );
  if (!options.forkSafe) {
    flowList(doc, ['on', 'push', 'branches']);
    commentAfter(doc, ['permissions', 'pull-requests'], 'the PR comment; nothing else is needed');
  }
  commentAfter(
    doc,
    ['jobs', 'bench', 'steps', 0, 'with', 'fetch-depth'],
    'base and head both need their history',
  );
  const duetkitAt = steps.findIndex((s) => s.id === 'duetkit');
  if (options.forkSafe) {
    commentAfter(
      doc,
      ['jobs', 'bench', 'steps', duetkitAt, 'with', 'comment'],
      `the token is read-only for forks; ${COMMENT_WORKFLOW_PATH} comments`,
    );
  }
  if (options.action === DEFAULT_ACTION) {
    commentAfter(doc, ['jobs', 'bench', 'steps', duetkitAt, 'uses'], OWNER_COMMENT);
  }
  return documentText(doc);
}

function commentWorkflow(action: string): string {
  const doc = newDocument(
    {
      name: `${WORKFLOW_NAME} comment`,
      on: { workflow_run: { workflows: [WORKFLOW_NAME], types: ['completed'] } },
      permissions: { actions: 'read', 'pull-requests': 'write' },
      jobs: {
        comment: {
          if: "github.event.workflow_run.event == 'pull_request' && github.event.workflow_run.conclusion != 'cancelled'",
          'runs-on': 'ubuntu-latest',
          'timeout-minutes': 5,
          steps: [
            {
              uses: 'actions/download-artifact@v4',
              with: {
                name: ARTIFACT,
                path: '${{ runner.temp }}/duetkit-results',
                'run-id': '${{ github.event.workflow_run.id }}',
                'github-token': '${{ github.token }}',
              },
            },
            {
              uses: action,
              with: {
                mode: 'comment',
                'results-directory': '${{ runner.temp }}/duetkit-results',
                comment: 'on-change',
              },
            },
          ],
        },
      },
    },
    [
      'Fork-safe pair, part 2 of 2, written by `duetkit init --fork-safe` (docs/init.md): runs',
      `after "${WORKFLOW_NAME}" in the context of the base repository, with a token that may comment.`,
      'It runs no code from the PR: it downloads the results artifact, checks that they belong to',
      "the PR's current head, re-renders them with escaping and posts or updates the one comment.",
    ],
  );
  flowList(doc, ['on', 'workflow_run', 'workflows']);
  flowList(doc, ['on', 'workflow_run', 'types']);
  commentAfter(doc, ['permissions', 'actions'], 'download the artifact of the other run');
  commentAfter(doc, ['permissions', 'pull-requests'], 'the comment');
  if (action === DEFAULT_ACTION) {
    commentAfter(doc, ['jobs', 'comment', 'steps', 1, 'uses'], OWNER_COMMENT);
  }
  return documentText(doc);
}

function gateHeader(options: WorkflowOptions): string[] {
  return [
    `Benchmarks every pull request (base: the merge base of its base branch and head) and every`,
    `push to ${options.branch} (base: the previous commit) with ${options.scenarioInRepo}, written by`,
    '`duetkit init` (docs/init.md). One comment per PR, updated in place; the check fails on a',
    'regression. For PRs from forks, `duetkit init --fork-safe` writes the two-workflow pair.',
  ];
}

function forkSafeHeader(options: WorkflowOptions): string[] {
  return [
    'Fork-safe pair, part 1 of 2, written by `duetkit init --fork-safe` (docs/init.md): runs',
    `${options.scenarioInRepo} on the PR's code with a read-only token and no secrets (plain`,
    '`pull_request`, never `pull_request_target`), gates the check, writes the job summary and',
    `uploads the results. Part 2 (${COMMENT_WORKFLOW_PATH}) posts the comment.`,
  ];
}

/** A toolchain step as the job runs it: file inputs and `run` in the project's directory. */
export function inProject(step: WorkflowStep, dirInRepo: string): WorkflowStep {
  if (dirInRepo === '') return step;
  const moved: WorkflowStep = { ...step };
  if (step.with !== undefined) {
    moved.with = Object.fromEntries(
      Object.entries(step.with).map(([key, value]) => [
        key,
        FILE_INPUTS.has(key) && typeof value === 'string' ? `${dirInRepo}/${value}` : value,
      ]),
    );
  }
  if (step.run !== undefined) moved['working-directory'] = dirInRepo;
  return moved;
}

/**
 * Half an hour, or the budget of each of the job's `runs` of the scenario and 20 minutes for
 * checkouts and builds when that is longer.
 */
export function timeoutMinutes(options: Pick<WorkflowOptions, 'budget'>, runs = 1): number {
  const seconds = durationSeconds(options.budget) ?? 0;
  return Math.max(30, runs * Math.ceil(seconds / 60) + 20);
}
