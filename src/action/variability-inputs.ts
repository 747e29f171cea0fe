import path from 'node:path';
import { parseHistoryInputs, type HistoryInputs } from './history-inputs.js';
import { InputError, valueInput, type GetInput } from './input-error.js';
import { parseSince, type Since } from '../scenario/values.js';
import { parseBisectWorkload, type BisectWorkloadInputs } from './bisect-inputs.js';

/** Inputs of `mode: variability`: read the history, report, and alert. */
export interface VariabilityInputs {
  mode: 'variability';
  /** Where the history is (`history-repository`, `-branch`, `-path`, `-token`). */
  history: HistoryInputs;
  /** Only this suite (the `name` input); null for all. */
  suite: string | null;
  /** How much of the history to analyse (`since`: 90d by default). */
  since: Since;
  alert: 'none' | 'issue';
  /** `github-token`: the alert issue, and reading the history without a `history-token`. */
  token: string;
  /** Absolute: the repository checkout (commits of change points). */
  workingDirectory: string;
  /** Absolute, or null for `$RUNNER_TEMP/duetkit/variability`. */
  resultsDirectory: string | null;
  /** `bisect: true`: the workload and settings to bisect tonight's steps with; else null. */
  bisect: BisectWorkloadInputs | null;
}

/**
 * Reads the inputs of `mode: variability` once; errors name the input, its value and what is
 * accepted.
 */
export function parseVariabilityInputs(get: GetInput, cwd: string): VariabilityInputs {
  const text = (name: string): string | null => {
    const value = get(name).trim();
    return value === '' ? null : value;
  };
  // `publish` has a default (none) the runner always passes; only `history` contradicts
  if (text('publish') === 'history') {
    throw new InputError(
      'publish',
      'history has no effect with mode: variability (it runs nothing to publish)',
    );
  }
  const bisectValue = text('bisect') ?? 'false';
  if (bisectValue !== 'true' && bisectValue !== 'false') {
    throw new InputError('bisect', `got ${JSON.stringify(bisectValue)}; accepted: true, false`);
  }
  const bisect = bisectValue === 'true';
  for (const name of ['scenario', 'run', 'aa', 'base-from-history', 'base-ref', 'head-ref']) {
    // with bisect: true, the workload to bisect with
    if (bisect && (name === 'scenario' || name === 'run')) continue;
    if (text(name) !== null) {
      throw new InputError(
        name,
        'has no effect with mode: variability (it reads the history, it runs nothing; with bisect: true, scenario or run is the workload to bisect with)',
      );
    }
  }
  const since = valueInput(parseSince)(text('since') ?? '90d', 'since');
  const alert = text('alert') ?? 'none';
  if (alert !== 'none' && alert !== 'issue') {
    throw new InputError('alert', `got ${JSON.stringify(alert)}; accepted: none, issue`);
  }
  if (bisect && alert !== 'issue') {
    throw new InputError(
      'bisect',
      'true bisects the steps the alert issue announces: set alert: issue as well',
    );
  }
  const workingDirectory = path.resolve(cwd, text('working-directory') ?? '.');
  const results = text('results-directory');
  return {
    mode: 'variability',
    history: parseHistoryInputs(text, workingDirectory, (name, message) => {
      throw new InputError(name, message);
    }),
    suite: text('name'),
    since,
    alert,
    token: text('github-token') ?? '',
    workingDirectory,
    resultsDirectory: results === null ? null : path.resolve(workingDirectory, results),
    bisect: bisect ? parseBisectWorkload(get, 'bisect: true') : null,
  };
}
