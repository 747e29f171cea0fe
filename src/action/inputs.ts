import path from 'node:path';
import { PROFILE_POLICIES, type ProfilePolicy } from '../scenario/profile-schema.js';
import type { FailOn } from '../analyze/gate.js';
import { formatNames } from '../formats/registry.js';
import type { CommentPolicy } from '../github/upsert-comment.js';
import { ISOLATIONS, MODES, type Mode } from '../scenario/schema.js';
import { parseMetricList, type Measure } from '../scenario/metric-list.js';
import { MAX_SEED } from '../stats/rng.js';
import { parseBisectInputs, type BisectInputs } from './bisect-inputs.js';
import { InputError, valueInput, type GetInput } from './input-error.js';
import {
  choice,
  command,
  duration,
  gitRef,
  got,
  integer,
  level,
  thresholds,
} from './input-parsers.js';
import type { ThresholdItems } from '../scenario/values.js';
import { parseVariabilityInputs, type VariabilityInputs } from './variability-inputs.js';
import { HISTORY_INPUT_NAMES, parseHistoryInputs, type HistoryInputs } from './history-inputs.js';
import { CLUSTER_PROVIDERS, type ClusterProviderName } from '../cluster/schema.js';

/** Inputs of `mode: run`: what to benchmark, against what, and how to report it. */
export interface RunInputs {
  mode: 'run';
  scenario: string | null;
  name: string | null;
  run: string[] | null;
  setup: string[] | null;
  format: string | null;
  metric: Measure[] | null;
  experimentMode: Mode | null;
  iterations: number | null;
  /** Seconds. */
  budget: number | null;
  /** The run's threshold and thresholds by kind of metric or benchmark (`memory=5%`). */
  threshold: ThresholdItems | null;
  level: number | null;
  isolation: (typeof ISOLATIONS)[number] | null;
  seed: number | null;
  /** Overrides the scenario's `profile.when`: which benchmarks to profile after the verdict. */
  profile: ProfilePolicy | null;
  baseRef: string | null;
  headRef: string | null;
  /** Nightly A/A: the head against itself (base = head), its figures stored with the entry. */
  aa: boolean;
  /**
   * Nightly step detection: the base is the commit of the suite's newest run in the history
   * (the previous nightly), so tonight's change is judged by a paired comparison.
   */
  baseFromHistory: boolean;
  token: string;
  comment: CommentPolicy;
  failOn: FailOn;
  /** Absolute. */
  workingDirectory: string;
  /** Absolute, or null for the default under $RUNNER_TEMP. */
  resultsDirectory: string | null;
  /** `publish: history` and where the history is (docs/history.md). */
  history: HistoryInputs;
  /** Run in a cluster of this provider (overrides the scenario's `cluster.provider`). */
  cluster: ClusterProviderName | null;
  /** The benchmark pod's image (overrides `cluster.image`). */
  clusterImage: string | null;
  /** A kubeconfig's content (a secret), for provider existing. */
  kubeconfig: string | null;
}

/** Inputs of `mode: comment`: post the comment a `run` step left in `resultsDirectory`. */
export interface CommentInputs {
  mode: 'comment';
  token: string;
  comment: CommentPolicy;
  workingDirectory: string;
  resultsDirectory: string;
}

export type ActionInputs = RunInputs | CommentInputs | VariabilityInputs | BisectInputs;

const ACTION_MODES = ['run', 'comment', 'variability', 'bisect'] as const;
const COMMENT_POLICIES = ['always', 'on-change', 'never'] as const;
const FAIL_ON = ['regression', 'inconclusive', 'never'] as const;
/** Inputs that describe a benchmark, meaningless when only commenting. */
const RUN_ONLY = [
  'scenario',
  'name',
  'run',
  'setup',
  'format',
  'metric',
  'experiment-mode',
  'iterations',
  'budget',
  'threshold',
  'level',
  'isolation',
  'seed',
  'profile',
  'base-ref',
  'head-ref',
  'aa',
  'base-from-history',
  ...HISTORY_INPUT_NAMES,
  'cluster',
  'cluster-image',
  'kubeconfig',
] as const;

/**
 * Reads and checks every input once. Throws an `InputError` naming the first bad input, its
 * value and what is accepted. `cwd` resolves `working-directory`.
 */
export function parseInputs(get: GetInput, cwd: string): ActionInputs {
  const text = (name: string): string | null => {
    const value = get(name).trim();
    return value === '' ? null : value;
  };
  const mode = choice(text('mode') ?? 'run', 'mode', ACTION_MODES);
  if (mode === 'variability') return parseVariabilityInputs(get, cwd);
  if (mode === 'bisect') return parseBisectInputs(get, cwd);
  const workingDirectory = path.resolve(cwd, text('working-directory') ?? '.');
  const token = text('github-token') ?? '';
  const comment = choice(text('comment') ?? 'always', 'comment', COMMENT_POLICIES);
  const results = text('results-directory');
  const resultsDirectory = results === null ? null : path.resolve(workingDirectory, results);
  if (mode === 'comment') {
    for (const name of RUN_ONLY) {
      if (text(name) !== null) {
        throw new InputError(name, 'has no effect with mode: comment (that mode only posts)');
      }
    }
    if (resultsDirectory === null) {
      throw new InputError(
        'results-directory',
        'required with mode: comment: the directory of the downloaded results artifact',
      );
    }
    return { mode, token, comment, workingDirectory, resultsDirectory };
  }
  const scenario = text('scenario');
  const run = optional(text('run'), 'run', command);
  if (scenario === null && run === null) {
    throw new InputError(
      'run',
      'required when there is no "scenario": the benchmark command, e.g. "npm run bench"',
    );
  }
  return {
    mode,
    scenario,
    name: optional(text('name'), 'name', suiteName),
    run,
    setup: optional(text('setup'), 'setup', command),
    format: optional(text('format'), 'format', format),
    metric: optional(text('metric'), 'metric', metricInput),
    experimentMode: optional(text('experiment-mode'), 'experiment-mode', (v, n) =>
      choice(v, n, MODES),
    ),
    iterations: optional(text('iterations'), 'iterations', integer(1, 1_000_000)),
    budget: optional(text('budget'), 'budget', duration),
    threshold: optional(text('threshold'), 'threshold', thresholds),
    level: optional(text('level'), 'level', level),
    isolation: optional(text('isolation'), 'isolation', (v, n) => choice(v, n, ISOLATIONS)),
    seed: optional(text('seed'), 'seed', integer(0, MAX_SEED)),
    profile: optional(text('profile'), 'profile', (v, n) => choice(v, n, PROFILE_POLICIES)),
    baseRef: optional(text('base-ref'), 'base-ref', gitRef),
    headRef: optional(text('head-ref'), 'head-ref', gitRef),
    aa: aaInput(text('aa'), text('base-ref')),
    baseFromHistory: baseFromHistoryInput(text('base-from-history'), text('base-ref'), text('aa')),
    token,
    comment,
    failOn: choice(text('fail-on') ?? 'regression', 'fail-on', FAIL_ON),
    workingDirectory,
    resultsDirectory,
    history: parseHistoryInputs(text, workingDirectory, (name, message) => {
      throw new InputError(name, message);
    }),
    cluster: optional(text('cluster'), 'cluster', (v, n) => choice(v, n, CLUSTER_PROVIDERS)),
    clusterImage: optional(text('cluster-image'), 'cluster-image', imageName),
    kubeconfig: text('kubeconfig'),
  };
}

/** `aa: true` compares the head with itself, so a base-ref alongside it is a contradiction. */
/** `wall`, `both`, or a list such as `wall, rss` (`parseMetricList`). */
const metricInput = valueInput(parseMetricList);

function aaInput(value: string | null, baseRef: string | null): boolean {
  if (value === null || value === 'false') return false;
  if (value !== 'true') throw new InputError('aa', `${got(value)}; accepted: true, false`);
  if (baseRef !== null) {
    throw new InputError('aa', 'true compares the head with itself: remove "base-ref"');
  }
  return true;
}

/** `base-from-history: true` chooses the base itself: with base-ref or aa it would contradict them. */
function baseFromHistoryInput(
  value: string | null,
  baseRef: string | null,
  aa: string | null,
): boolean {
  if (value === null || value === 'false') return false;
  if (value !== 'true') {
    throw new InputError('base-from-history', `${got(value)}; accepted: true, false`);
  }
  if (baseRef !== null) {
    throw new InputError(
      'base-from-history',
      'true takes the base from the history: remove "base-ref"',
    );
  }
  if (aa === 'true') {
    throw new InputError(
      'base-from-history',
      'true compares with the previous run, "aa: true" with the head itself: use one per step',
    );
  }
  return true;
}

function imageName(value: string, name: string): string {
  if (/^[\w][\w.\-/:@]*$/.test(value)) return value;
  throw new InputError(
    name,
    `${got(value)}; expected an image reference such as node:24-bookworm-slim`,
  );
}

function optional<T>(
  value: string | null,
  name: string,
  parse: (value: string, name: string) => T,
): T | null {
  return value === null ? null : parse(value, name);
}

function format(value: string, name: string): string {
  return choice(value, name, ['auto', ...formatNames()]);
}

function suiteName(value: string, name: string): string {
  if (value.length <= 100 && !/[\r\n]/.test(value)) return value;
  throw new InputError(name, `${got(value)}; expected one line of at most 100 characters`);
}
